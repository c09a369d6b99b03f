// PATCH /api/companies/{id}/engine (docs/api/companies.md), and its twin PATCH /api/v1/companies/{slug}/engine: the
// engine preset, autonomy level, master directive and daily model-spend cap, signed by the card's holder.
import { Type } from 'typebox';
import { AUTONOMY_LEVELS, ENGINE_PRESETS, MASTER_DIRECTIVE_MAX } from '../../../constants.ts';
import { updateEngine } from '../../../domain/companies/settings.ts';
import { route, slugTwin } from '../../route.ts';
import { Nullable, StringEnum } from '../../schemas/common.ts';
import { CompanyParams } from '../../schemas/companies.ts';
import { NamedTokens } from './company.ts';

export const EngineBody = Type.Object(
  {
    enginePreset: Type.Optional(StringEnum(ENGINE_PRESETS)),
    autonomyLevel: Type.Optional(StringEnum(AUTONOMY_LEVELS)),
    masterDirective: Type.Optional(Type.String({ maxLength: MASTER_DIRECTIVE_MAX })),
    dailyModelSpendCap: Type.Optional(
      Nullable(
        Type.String({
          pattern: '^[0-9]{1,12}(\\.[0-9]{1,6})?$',
          maxLength: 19,
          description:
            "USD a day the company's rounds may spend on models (decimal string, at most 6 decimals), at most the platform's maximum per company; null: that maximum",
        }),
      ),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);
const MachineResult = StringEnum(['ok', 'skipped', 'failed'] as const);
export const Engine = Type.Object({
  autonomyLevel: StringEnum(AUTONOMY_LEVELS),
  masterDirective: Nullable(Type.String()),
  masterDirectiveTokens: NamedTokens,
  /** The company's daily model-spend cap in force, USD decimal string (the platform's maximum when none was set). */
  dailyModelSpendCap: Type.String(),
  machineResults: Type.Object({ resize: MachineResult, envUpdate: MachineResult }),
});

export default route({
  method: 'PATCH',
  url: '/api/companies/:id/engine',
  auth: 'wallet',
  tag: 'companies',
  summary: 'Set the engine preset, autonomy level and master directive; resizes the compute machine',
  params: CompanyParams,
  body: EngineBody,
  response: Engine,
  load: (deps, { params, body, signer }) => updateEngine(deps, params.id, signer, body),
  v1: slugTwin('/companies/:slug/engine', CompanyParams),
});
