CREATE TABLE "chain_blocks" (
	"stream" text NOT NULL,
	"number" bigint NOT NULL,
	"hash" text NOT NULL,
	CONSTRAINT "chain_blocks_stream_number_pk" PRIMARY KEY("stream","number")
);
