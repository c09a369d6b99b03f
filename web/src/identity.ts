// What the faces and bios of agents and companies are drawn from (web/src/avatars.tsx draws them): bytes of
// keccak256 of an identity, the cells of an identicon, a name's initials, and a short bio where none is stored.
import { keccak256, toBytes } from 'viem';

/** The bytes of keccak256(`seed`): what every drawing below is taken from. */
export function bytesOf(seed: string): number[] {
  const hex = keccak256(toBytes(seed)).slice(2);
  return Array.from({ length: 32 }, (_, i) => Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16));
}

/** A colour of `seed`'s hue, light enough to read on the dark theme. */
export const hueOf = (bytes: number[]) => Math.round(((bytes[0]! * 256 + bytes[1]!) / 65_536) * 360);

/** The cells of a 5x5 identicon, mirrored left to right: 15 choices, one a byte. */
export function identiconCells(seed: string): boolean[][] {
  const bytes = bytesOf(seed);
  return Array.from({ length: 5 }, (_, row) => {
    const left = [0, 1, 2].map((col) => bytes[2 + row * 3 + col]! % 2 === 0);
    return [left[0]!, left[1]!, left[2]!, left[1]!, left[0]!];
  });
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
