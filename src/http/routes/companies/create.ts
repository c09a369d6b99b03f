// POST /api/companies (docs/api/companies.md), and its twin POST /api/v1/companies: a company bound for ever to one of
// the signer's unused access cards.
import { Type } from 'typebox';
import { chainDateForReads } from '../../../chain/time.ts';
import {
  COMPANY_CATEGORIES,
  COMPANY_DESCRIPTION_MAX,
  COMPANY_NAME_MAX,
  COMPANY_NAME_MIN,
  COMPANY_SLUG_MAX,
  COMPANY_SLUG_MIN,
  COMPANY_SLUG_PATTERN,
  LOGO_URL_MAX,
} from '../../../constants.ts';
import { createCompany } from '../../../domain/companies/create.ts';
import { getCompanyView } from '../../../domain/companies/queries.ts';
import { route } from '../../route.ts';
import { AddressString, StringEnum } from '../../schemas/common.ts';
import { Company } from './company.ts';

export const CreateCompanyBody = Type.Object(
  {
    name: Type.String({ minLength: COMPANY_NAME_MIN, maxLength: COMPANY_NAME_MAX }),
    slug: Type.Optional(
      Type.String({ minLength: COMPANY_SLUG_MIN, maxLength: COMPANY_SLUG_MAX, pattern: COMPANY_SLUG_PATTERN }),
    ),
    category: StringEnum(COMPANY_CATEGORIES),
    description: Type.Optional(Type.String({ maxLength: COMPANY_DESCRIPTION_MAX })),
    logoUrl: Type.Optional(Type.String({ maxLength: LOGO_URL_MAX, format: 'uri', pattern: '^https?://' })),
    treasuryAddress: Type.Optional(AddressString),
    referrerCompanyId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  },
  { additionalProperties: false },
);

export default route({
  method: 'POST',
  url: '/api/companies',
  auth: 'wallet',
  tag: 'companies',
  summary: "Create a company bound for ever to one of the signer's unused access cards",
  body: CreateCompanyBody,
  status: 201,
  response: Company,
  // A retry of a keyed creation that may have committed answers the company it created (src/http/plugins/idempotency.ts).
  recover: {
    kind: 'company',
    answer: async (deps, { id }) => {
      const now = (await chainDateForReads(deps.chain.publicClient, deps.now)).getTime();
      return getCompanyView(deps, id, now);
    },
  },
  load: (deps, { body, signer, record }) => createCompany(deps, signer!, body, record),
  v1: { url: '/companies' },
});
