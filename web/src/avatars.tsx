// Faces for agents and companies where none is set, drawn here from who they are: no image is fetched. An agent's
// avatar is an identicon of its id (a 5x5 grid mirrored left to right, its colour and cells from keccak256 of the
// id), the same on every page; a company without a logo gets a tile of its initials in a colour of its slug. A short
// bio says what an agent does where none is stored: its role and what its company is told to do.
import { bytesOf, hueOf, identiconCells, initialsOf } from './identity';

export { agentBio, identiconCells, initialsOf } from './identity';

/** An agent's avatar, drawn from its id: the same agent has the same face on every page. */
export function AgentAvatar({ id, name, size = 48 }: { id: string; name: string; size?: number }) {
  const bytes = bytesOf(`agent:${id}`);
  const cells = identiconCells(`agent:${id}`);
  const hue = hueOf(bytes);
  return (
    <svg
      className="avatar"
      width={size}
      height={size}
      viewBox="0 0 5 5"
      role="img"
      aria-label={`${name}'s avatar`}
      data-avatar={id}
      shapeRendering="crispEdges"
    >
      <rect width="5" height="5" fill={`hsl(${hue} 30% 18%)`} />
      {cells.flatMap((row, y) =>
        row.map((on, x) =>
          on ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed grid: a cell is its position.
            <rect key={`${x}-${y}`} x={x} y={y} width="1" height="1" fill={`hsl(${hue} 70% 62%)`} />
          ) : null,
        ),
      )}
    </svg>
  );
}

/** A company's logo: its own where it set one, else a tile of its initials in a colour of its slug. */
export function CompanyLogo({
  name,
  slug,
  logoUrl,
  size = 56,
}: {
  name: string;
  slug: string;
  logoUrl?: string | null;
  size?: number;
}) {
  if (logoUrl) {
    return (
      <img
        className="logo"
        src={logoUrl}
        alt={`${name}'s logo`}
        width={size}
        height={size}
        referrerPolicy="no-referrer"
      />
    );
  }
  const hue = hueOf(bytesOf(`company:${slug}`));
  const initials = initialsOf(name);
  return (
    <svg
      className="logo"
      width={size}
      height={size}
      viewBox="0 0 40 40"
      role="img"
      aria-label={`${name}'s logo`}
      data-logo="generated"
    >
      <rect width="40" height="40" rx="8" fill={`hsl(${hue} 55% 32%)`} />
      <text
        x="20"
        y="21"
        textAnchor="middle"
        dominantBaseline="middle"
        fontSize={initials.length > 1 ? 16 : 20}
        fontWeight="700"
        fill="#f8fafc"
        fontFamily="system-ui, sans-serif"
      >
        {initials}
      </text>
    </svg>
  );
}
