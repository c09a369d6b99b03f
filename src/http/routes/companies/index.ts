// The companies family (docs/api/companies.md): an access card's company, creation (signed by the card's holder), a
// company's detail (with a v1 twin, registered by v1.ts from the same definition), its directive (signed or not, by
// COMPANY_PATCH_AUTH), its engine and treasury, and deploy-suite. The signed writes have v1 twins too, under
// /api/v1 with an API key beside the signature.
import { type AnyRoute, registerRoute } from '../../route.ts';
import type { App, RouteOptions } from '../../types.ts';
import card from './card.ts';
import create from './create.ts';
import deploySuite from './deploy-suite.ts';
import detail from './detail.ts';
import directive from './directive.ts';
import engine from './engine.ts';
import treasury from './treasury.ts';

/** The family's reads with a v1 twin, in the order the v1 document lists the twins. */
export const companyReads: AnyRoute[] = [detail];

/** The family's signed writes, each with a v1 twin, in the order the v1 document lists them. */
export const companyWrites: AnyRoute[] = [create, engine, treasury, deploySuite];

export default async function companyRoutes(app: App, options: RouteOptions) {
  for (const def of [card, ...companyWrites, detail, directive] as AnyRoute[]) {
    registerRoute(app, options, def, 'internal');
  }
}
