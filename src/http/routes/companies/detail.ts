// GET /api/companies/{id} (docs/api/companies.md), and its twin GET /api/v1/companies/{slug}: a company by id or slug,
// with its agents and the platform's gas of the chain's day.
import { chainDateForReads } from '../../../chain/time.ts';
import { getCompanyView } from '../../../domain/companies/queries.ts';
import { dayOf } from '../../../domain/costs/gas-budget.ts';
import { route, slugTwin } from '../../route.ts';
import { CompanyParams } from '../../schemas/companies.ts';
import { Company } from './company.ts';

export default route({
  url: '/api/companies/:id',
  auth: 'none',
  tag: 'companies',
  summary: 'A company by id or slug, with its agents',
  params: CompanyParams,
  response: Company,
  // The gas shown is the chain's day's (chainDateForReads: never waits on a node that does not answer).
  now: async (deps) => (await chainDateForReads(deps.chain.publicClient, deps.now)).getTime(),
  // Kept until a table it was read from changes (read-cache.ts), and per day: the view shows the gas of the day.
  cache: {
    name: 'company',
    tables: ['companies', 'agents', 'company_gas_days'],
    key: ({ params, now }) => `${params.id}|${dayOf(now!)}`,
  },
  load: (deps, { params, now }) => getCompanyView(deps, params.id, now!),
  v1: slugTwin('/companies/:slug', CompanyParams, {
    summary: 'A company by id or slug, with its agents (the detail of GET /api/companies/{id})',
  }),
});
