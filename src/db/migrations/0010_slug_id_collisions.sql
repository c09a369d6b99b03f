-- A company whose slug is another company's id would stand in for it wherever a route takes an id or a slug.
-- Such slugs get the suffix "-<first 6 characters of their own id>", which is unique and no longer id-shaped.
UPDATE "companies" AS "squatter"
SET "slug" = "squatter"."slug" || '-' || substr("squatter"."id", 1, 6), "updated_at" = now()
WHERE EXISTS (SELECT 1 FROM "companies" AS "owner" WHERE "owner"."id" = "squatter"."slug" AND "owner"."id" <> "squatter"."id");
