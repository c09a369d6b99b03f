// PATCH /api/companies/{id} (docs/api/companies.md): the CEO directive, autonomy, engine models and toolkit. Signed by
// the card's holder with COMPANY_PATCH_AUTH=signature; otherwise unsigned and rate-limited by IP, and the creator's
// signature only when the company's agents can trade or stake.
import { Type } from 'typebox';
import { AUTONOMY_LEVELS, CEO_PROMPT_MAX, LEAGUES } from '../../../constants.ts';
import { updateDirective } from '../../../domain/companies/settings.ts';
import { route } from '../../route.ts';
import { Nullable, StringEnum } from '../../schemas/common.ts';
import { CompanyParams } from '../../schemas/companies.ts';
import { EngineConfigSchema, NamedTokens, ToolkitConfigSchema } from './company.ts';

export const DirectiveBody = Type.Object(
  {
    ceoPrompt: Type.Optional(Nullable(Type.String({ maxLength: CEO_PROMPT_MAX }))),
    autonomyLevel: Type.Optional(StringEnum(AUTONOMY_LEVELS)),
    engineConfig: Type.Optional(Nullable(EngineConfigSchema)),
    toolkitConfig: Type.Optional(Nullable(ToolkitConfigSchema)),
  },
  { additionalProperties: false },
);

export const Directive = Type.Object({
  id: Type.String(),
  autonomyLevel: StringEnum(AUTONOMY_LEVELS),
  ceoPrompt: Nullable(Type.String()),
  ceoPromptTokens: NamedTokens,
  league: StringEnum(LEAGUES),
  engineConfig: Nullable(EngineConfigSchema),
  toolkitConfig: Nullable(ToolkitConfigSchema),
  /**
   * The money-relevant settings last set without the creator's signature: while any is listed the company's agents
   * move no money. A signed request that sets a field clears it.
   */
  unsignedSettings: Type.Array(StringEnum(['ceoPrompt', 'autonomyLevel', 'engineConfig', 'toolkitConfig'])),
});

const signed = (deps: { config: { companyPatchAuth: string } }) => deps.config.companyPatchAuth === 'signature';

export default route({
  method: 'PATCH',
  url: '/api/companies/:id',
  auth: (deps) => (signed(deps) ? 'wallet' : 'walletOptional'),
  tag: 'companies',
  summary: (auth) =>
    auth === 'wallet'
      ? "Set the CEO directive, autonomy and engine models (creator's signature)"
      : "Set the CEO directive, autonomy and engine models (unsigned, rate-limited by IP: COMPANY_PATCH_AUTH=ip; the creator's signature when the company's agents can trade or stake)",
  description:
    "For a company with custody a toolkitConfig's limits are saved, then written to the company's Roles module (its daily allowance and largest buy, as saved last). 409 CONFLICT when the platform may not change that module (its key is not a member of the module's manage role): the settings are saved all the same, and the message says how the card's holder sets the module's limits or gives the role back (the reconcile-custody job then moves them).",
  params: CompanyParams,
  body: DirectiveBody,
  response: Directive,
  load: (deps, { params, body, signer }) => updateDirective(deps, params.id, signer, body, signed(deps)),
});
