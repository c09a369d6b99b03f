// GET /api/decisions/{decisionId}/verify (docs/api/decisions.md "Decision verification"): a round's stored hash
// compared with the anchor contract and the legacy ERC-8004 validation entries.
import { Type } from 'typebox';
import { verifyDecision } from '../../../domain/engine/queries.ts';
import { route } from '../../route.ts';
import { IsoTimestamp, Nullable, StringEnum } from '../../schemas/common.ts';
import { DecisionParams } from './round.ts';

export const Verification = Type.Object({
  decisionId: Type.String(),
  decisionHash: Nullable(Type.String()),
  anchoredTxHash: Nullable(Type.String()),
  anchoredAt: Type.Optional(IsoTimestamp),
  anchoredBlock: Type.Optional(
    Type.Integer({ description: 'The block of the anchoring transaction (verified through the anchor contract)' }),
  ),
  onChainVerified: Type.Boolean(),
  verificationMethod: StringEnum([
    'erc8004_validation',
    'decision_anchor',
    'db_only',
    'not_anchored',
    'not_verified',
  ] as const),
  explorerUrl: Type.Optional(
    Nullable(
      Type.String({
        format: 'uri',
        description:
          "The anchoring transaction on the chain's block explorer (present when verified through the anchor contract); null when the chain has no explorer",
      }),
    ),
  ),
  reason: Type.Optional(Type.String()),
  merkle: Type.Optional(
    Type.Object(
      {
        companyKey: Type.String({ pattern: '^0x[0-9a-f]{64}$' }),
        root: Type.String({ pattern: '^0x[0-9a-f]{64}$' }),
        proof: Type.Array(Type.String({ pattern: '^0x[0-9a-f]{64}$' })),
      },
      {
        description:
          "For a round anchored in a batch by Merkle root: anyone checks it with the anchor contract's anchoredAt(companyKey, decisionHash, proof), which answers the anchoring block's timestamp (0 when not anchored)",
      },
    ),
  ),
});

export default route({
  url: '/api/decisions/:decisionId/verify',
  auth: 'none',
  tag: 'decisions',
  summary: "Compare a round's stored hash with the anchor contract and legacy ERC-8004 validation entries",
  params: DecisionParams,
  response: Verification,
  load: (deps, { params }) => verifyDecision(deps, params.decisionId),
});
