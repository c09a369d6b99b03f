// GET /api/epochs/{epoch}/proof/{companyId} (docs/api/epochs.md), and its twin
// GET /api/v1/epochs/{epoch}/proof/{slug}: a company's Merkle leaf and proof in a finalized epoch.
import { Type } from 'typebox';
import { readProof } from '../../../domain/epochs/queries.ts';
import { route } from '../../route.ts';
import { AddressString, WeiString } from '../../schemas/common.ts';
import { SlugParams } from '../../schemas/tokens.ts';
import { Bytes32, CompanyId, EpochNumber } from './shared.ts';

export const Proof = Type.Object({
  epoch: Type.Integer({ minimum: 0 }),
  companyId: Type.String(),
  leaf: Type.Object({
    index: Type.Integer({ minimum: 0, description: "The leaf's bit in the distributor's claimed bitmap" }),
    companyKey: Bytes32,
    claimTo: AddressString,
    score: WeiString,
    amount: WeiString,
  }),
  proof: Type.Array(Bytes32),
  root: Bytes32,
  claimed: Type.Boolean({ description: 'Whether the platform recorded the claim as paid' }),
});

export default route({
  url: '/api/epochs/:epoch/proof/:companyId',
  auth: 'none',
  tag: 'epochs',
  summary: "A company's Merkle leaf and proof in a finalized epoch, so anyone can check or claim it",
  description:
    "The leaf is (epoch, index, companyKey, claimTo, score) of the distributor's StandardMerkleTree; anyone may call the distributor's claim(epoch, index, companyKey, claimTo, score, proof), and the reward always mints to claimTo. 404 when the company is unknown, the epoch is not finalized or the company has no leaf in it.",
  params: Type.Object({ epoch: EpochNumber('A finalized epoch'), companyId: CompanyId }),
  response: Proof,
  load: (deps, { params }) => readProof(deps, params.epoch, params.companyId),
  v1: {
    url: '/epochs/:epoch/proof/:slug',
    params: Type.Object({
      epoch: Type.Integer({ minimum: 0, maximum: 1_000_000_000, description: 'A finalized epoch' }),
      ...SlugParams.properties,
    }),
    description: null,
    paramsOf: (params: { epoch: number; slug: string }) => ({ epoch: params.epoch, companyId: params.slug }),
  },
});
