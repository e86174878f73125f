ALTER TABLE "domain_proofs" ADD COLUMN "local_port" integer;
