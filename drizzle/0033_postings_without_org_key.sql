ALTER TABLE "postings" DROP CONSTRAINT "postings_org_id_orgs_id_fk";
