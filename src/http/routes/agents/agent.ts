// What the agent routes' schemas share: an agent named in a path, the fields of the create and update bodies (bounds
// from constants.ts and the agents area's rules for persona and strategy), and the list and detail views.
import { type TSchema, Type } from 'typebox';
import {
  AGENT_DESCRIPTION_MAX,
  AGENT_NAME_MAX,
  AGENT_NAME_MIN,
  AGENT_ROLES,
  AGENT_SKILLS_MAX,
  AGENT_SKILLS_MIN,
  AGENT_STATUSES,
  PERSONA_ROLE_MAX,
  PERSONA_TEXT_MAX,
  SKILL_MAX_LENGTH,
  STRATEGY_PRESETS,
  STRATEGY_TYPE_MAX,
} from '../../../constants.ts';
import { AddressOut, IsoTimestamp, StringEnum } from '../../schemas/common.ts';

export const Nullable = <T extends TSchema>(schema: T, description?: string) =>
  Type.Union([schema, Type.Null()], description ? { description } : {});

/** Text that must say something: within its bounds and not only whitespace. */
const Text = (min: number, max: number, description: string) =>
  Type.String({ minLength: min, maxLength: max, pattern: '\\S', description });

export const AgentIdParams = Type.Object({ id: Type.String({ description: 'Agent id (CUID2)' }) });

export const Name = Text(AGENT_NAME_MIN, AGENT_NAME_MAX, `${AGENT_NAME_MIN}-${AGENT_NAME_MAX} characters, not blank`);
export const Description = Type.String({
  maxLength: AGENT_DESCRIPTION_MAX,
  description: `At most ${AGENT_DESCRIPTION_MAX} characters`,
});
export const PersonaRole = Text(
  1,
  PERSONA_ROLE_MAX,
  `1-${PERSONA_ROLE_MAX} characters. One of ${AGENT_ROLES.join(', ')} (any case) also sets the agent's role`,
);
export const PersonaDescription = Type.String({
  maxLength: PERSONA_TEXT_MAX,
  description: `At most ${PERSONA_TEXT_MAX} characters`,
});
export const Skills = (description: string) =>
  Type.Array(Text(1, SKILL_MAX_LENGTH, `1-${SKILL_MAX_LENGTH} characters, not blank`), {
    minItems: AGENT_SKILLS_MIN,
    maxItems: AGENT_SKILLS_MAX,
    description,
  });
export const StrategyType = Text(1, STRATEGY_TYPE_MAX, `1-${STRATEGY_TYPE_MAX} characters, not blank`);
export const Preset = StringEnum(STRATEGY_PRESETS);
export const closed = { additionalProperties: false } as const;

const Persona = Type.Object({ role: Type.String(), description: Type.String() });
const Strategy = Type.Object({ type: Type.String(), preset: Type.String() });
const NullableTimestamp = Nullable(IsoTimestamp);

export const listFields = {
  id: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  role: Nullable(StringEnum(AGENT_ROLES), 'C-suite role; null for a stand-alone agent whose persona names another'),
  status: StringEnum(AGENT_STATUSES),
  companyId: Nullable(Type.String(), 'Parent company; null for a stand-alone agent'),
  creatorAddress: AddressOut('Checksummed creator wallet'),
  onChainAddress: Nullable(Type.String(), 'Agent wallet; null until deployed'),
  walletAddress: Nullable(Type.String(), 'Alias of onChainAddress'),
  erc8004Id: Nullable(Type.String(), 'ERC-8004 identity token id (decimal; "0" is a real id); null until registered'),
  persona: Persona,
  skills: Type.Array(Type.String()),
  strategy: Strategy,
  decisionsCount: Type.Integer(),
  lastActiveAt: NullableTimestamp,
  createdAt: IsoTimestamp,
};

export const AgentListItem = Type.Object(listFields);

export const AgentDetail = Type.Object({
  ...listFields,
  identity: Nullable(
    Type.Object({ erc8004TokenId: Type.String(), trustRegistryAddress: Nullable(Type.String()) }),
    'ERC-8004 identity; null until registered',
  ),
  metrics: Type.Object({
    decisionsExecuted: Type.Integer(),
    llmCallsTotal: Type.Integer(),
    toolCallsTotal: Type.Integer(),
    lastActiveAt: NullableTimestamp,
  }),
  company: Nullable(
    Type.Object({ id: Type.String(), name: Type.String(), slug: Type.String(), category: Type.String() }),
    'null for a stand-alone agent',
  ),
  updatedAt: IsoTimestamp,
});
