// A company named in a path, as the routes of several families name it (companies, tokens, trading, decisions, the
// Fortune List): its id or its slug. The company routes' own schemas live beside them in src/http/routes/companies/.
import { Type } from 'typebox';

export const CompanyParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64, description: 'Company id (CUID) or slug' }),
});
