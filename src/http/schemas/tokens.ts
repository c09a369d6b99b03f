// A company named in a v1 path, as the v1 routes of several families name it (tokens, decisions, epochs, the Fortune
// List): `{slug}`, its id or its slug. The token routes' own schemas live beside them in src/http/routes/tokens/.
import { Type } from 'typebox';

export const SlugParams = Type.Object({
  slug: Type.String({ minLength: 1, maxLength: 64, description: 'Company id (CUID) or slug' }),
});
