// Access-card metadata and image routes (SPEC.md GET /api/nft/metadata/{tokenId}, GET /api/nft/image/{tokenId}).
import type { App, RouteOptions } from '../types.ts';

export default async function nftRoutes(_app: App, _options: RouteOptions) {}
