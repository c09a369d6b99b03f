// Schemas of the agent routes: the create and update bodies, the list query, the list and detail views, and the
// ERC-8004 registration file. Bounds come from constants.ts (and the agents area's rules for persona/strategy).
import { type TSchema, Type } from 'typebox';
import {
  AGENT_DESCRIPTION_MAX,
  AGENT_NAME_MAX,
  AGENT_NAME_MIN,
  AGENT_ROLES,
  AGENT_SETTABLE_STATUSES,
  AGENT_SKILLS_MAX,
  AGENT_SKILLS_MIN,
  AGENT_STATUSES,
  AGENTS_PAGE_SIZE_DEFAULT,
  AGENTS_PAGE_SIZE_MAX,
  PERSONA_ROLE_MAX,
  PERSONA_TEXT_MAX,
  SKILL_MAX_LENGTH,
  STRATEGY_PRESETS,
  STRATEGY_TYPE_MAX,
} from '../../constants.ts';
import { REGISTRATION_TYPE } from '../../domain/agents/registration.ts';
import { AddressOut, AddressString, IsoTimestamp, internalOk, PageQuery, Pagination, StringEnum } from './common.ts';

const Nullable = <T extends TSchema>(schema: T, description?: string) =>
  Type.Union([schema, Type.Null()], description ? { description } : {});

/** Text that must say something: within its bounds and not only whitespace. */
const Text = (min: number, max: number, description: string) =>
  Type.String({ minLength: min, maxLength: max, pattern: '\\S', description });

// ---------------------------------------------------------------- requests

export const AgentIdParams = Type.Object({ id: Type.String({ description: 'Agent id (CUID2)' }) });

export const ListAgentsQuery = Type.Object({
  ...PageQuery(AGENTS_PAGE_SIZE_DEFAULT, AGENTS_PAGE_SIZE_MAX),
  status: Type.Optional(StringEnum(AGENT_STATUSES)),
  creator: Type.Optional(AddressString),
});

const Name = Text(AGENT_NAME_MIN, AGENT_NAME_MAX, `${AGENT_NAME_MIN}-${AGENT_NAME_MAX} characters, not blank`);
const Description = Type.String({
  maxLength: AGENT_DESCRIPTION_MAX,
  description: `At most ${AGENT_DESCRIPTION_MAX} characters`,
});
const PersonaRole = Text(
  1,
  PERSONA_ROLE_MAX,
  `1-${PERSONA_ROLE_MAX} characters. One of ${AGENT_ROLES.join(', ')} (any case) also sets the agent's role`,
);
const PersonaDescription = Type.String({
  maxLength: PERSONA_TEXT_MAX,
  description: `At most ${PERSONA_TEXT_MAX} characters`,
});
const Skills = (description: string) =>
  Type.Array(Text(1, SKILL_MAX_LENGTH, `1-${SKILL_MAX_LENGTH} characters, not blank`), {
    minItems: AGENT_SKILLS_MIN,
    maxItems: AGENT_SKILLS_MAX,
    description,
  });
const StrategyType = Text(1, STRATEGY_TYPE_MAX, `1-${STRATEGY_TYPE_MAX} characters, not blank`);
const Preset = StringEnum(STRATEGY_PRESETS);
const closed = { additionalProperties: false } as const;

export const CreateAgentBody = Type.Object(
  {
    name: Name,
    description: Type.Optional(Description),
    persona: Type.Object({ role: PersonaRole, description: PersonaDescription }, closed),
    skills: Skills(`${AGENT_SKILLS_MIN}-${AGENT_SKILLS_MAX} skills`),
    strategy: Type.Object({ type: StrategyType, preset: Preset }, closed),
  },
  closed,
);

export const UpdateAgentBody = Type.Object(
  {
    name: Type.Optional(Name),
    description: Type.Optional(Description),
    persona: Type.Optional(
      Type.Object(
        { role: Type.Optional(PersonaRole), description: Type.Optional(PersonaDescription) },
        { ...closed, minProperties: 1, description: 'Merged into the stored persona: only the keys given change' },
      ),
    ),
    skills: Type.Optional(Skills(`Replaces the skills: ${AGENT_SKILLS_MIN}-${AGENT_SKILLS_MAX} items`)),
    strategy: Type.Optional(
      Type.Object(
        { type: Type.Optional(StrategyType), preset: Type.Optional(Preset) },
        { ...closed, minProperties: 1, description: 'Merged into the stored strategy: only the keys given change' },
      ),
    ),
    status: Type.Optional(
      StringEnum(AGENT_SETTABLE_STATUSES, { description: 'ACTIVE needs a deployed agent (one with a wallet)' }),
    ),
  },
  { ...closed, minProperties: 1, description: 'At least one field; only the fields given are updated' },
);

// ---------------------------------------------------------------- views

const Persona = Type.Object({ role: Type.String(), description: Type.String() });
const Strategy = Type.Object({ type: Type.String(), preset: Type.String() });
const NullableTimestamp = Nullable(IsoTimestamp);

const listFields = {
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

export const AgentCreated = Type.Object({
  id: Type.String(),
  name: Type.String(),
  status: StringEnum(AGENT_STATUSES),
  creatorAddress: AddressOut(),
  createdAt: IsoTimestamp,
});

export const AgentTerminated = Type.Object({ id: Type.String(), status: Type.Literal('TERMINATED') });

export const AgentListResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Array(AgentListItem),
  pagination: Pagination,
});
export const AgentDetailResponse = internalOk(AgentDetail);
export const AgentCreatedResponse = internalOk(AgentCreated);
export const AgentTerminatedResponse = internalOk(AgentTerminated);

export const AgentRegistration = Type.Object(
  {
    type: Type.Literal(REGISTRATION_TYPE),
    name: Type.String(),
    description: Type.String(),
    image: Nullable(Type.String(), "The company's logo, else its access card image; null for a stand-alone agent"),
    services: Type.Array(Type.Object({ name: Type.String(), endpoint: Type.String() })),
    x402Support: Type.Boolean(),
    active: Type.Boolean({ description: 'True while the agent is ACTIVE' }),
    registrations: Type.Array(
      Type.Object({
        agentId: Type.Integer(),
        agentRegistry: Type.String({ description: 'eip155:<chainId>:<identity registry address>' }),
      }),
    ),
    supportedTrust: Type.Array(Type.String()),
  },
  { description: 'ERC-8004 agent registration file (registration-v1), not wrapped in an envelope' },
);
