// Faces for agents and companies where none is set, drawn here from who they are: no image is fetched. An agent's
// avatar is an identicon of its id (a 5x5 grid mirrored left to right, its colour and cells from keccak256 of the
// id), the same on every page; a company without a logo gets a tile of its initials in a colour of its slug. A short
// bio says what an agent does where none is stored: its role and what its company is told to do.
import { keccak256, toBytes } from 'viem';

/** The bytes of keccak256(`seed`): what every drawing below is taken from. */
function bytesOf(seed: string): number[] {
  const hex = keccak256(toBytes(seed)).slice(2);
  return Array.from({ length: 32 }, (_, i) => Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16));
}

/** A colour of `seed`'s hue, light enough to read on the dark theme. */
const hueOf = (bytes: number[]) => Math.round(((bytes[0]! * 256 + bytes[1]!) / 65_536) * 360);

/** The cells of a 5x5 identicon, mirrored left to right: 15 choices, one a byte. */
export function identiconCells(seed: string): boolean[][] {
  const bytes = bytesOf(seed);
  return Array.from({ length: 5 }, (_, row) => {
    const left = [0, 1, 2].map((col) => bytes[2 + row * 3 + col]! % 2 === 0);
    return [left[0]!, left[1]!, left[2]!, left[1]!, left[0]!];
  });
}

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

/** "SS" for "Spot Sprinters", "N" for "Neural": the first letters of the first two words, upper case. */
export function initialsOf(name: string): string {
  const words = name.match(/[\p{L}\p{N}]+/gu) ?? [];
  return (
    words
      .slice(0, 2)
      .map((w) => w[0]!.toUpperCase())
      .join('') || '?'
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

/**
 * An agent's short bio: what it stored, else its role at its company, what that role does (its persona) and, when the
 * company has one, what the company is told to do (its directive, cut to a sentence's length).
 */
export function agentBio(agent: {
  description: string | null;
  role: string | null;
  persona: { description: string };
  company: { name: string } | null;
  directive?: string | null;
}): string {
  if (agent.description?.trim()) return agent.description.trim();
  const who = agent.role ? `The ${agent.role} of ${agent.company?.name ?? 'no company'}.` : 'A stand-alone agent.';
  const work = agent.persona.description.trim();
  const directive = agent.directive?.trim();
  const cut = directive && directive.length > 160 ? `${directive.slice(0, 157).trimEnd()}…` : directive;
  return [who, work, cut ? `Its company's directive: “${cut}”` : ''].filter(Boolean).join(' ');
}
