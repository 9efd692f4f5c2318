/**
 * What the search index costs to build and keep (`BENCH_FOOTPRINT=1 npm run bench:search`).
 *
 * The live table has been written by the load, migrations and updates, so its size includes dead
 * space; the figures here come from a fresh copy built the way a migration's backfill builds it:
 * every site's postings (`search_postings_of`) into a new table, then its list index, each step
 * timed. Then, per kind of list (`w:` words, `t:` tags, `c:` category per signal pattern, `p:`
 * signal patterns, `b:` wide beginnings), its postings, its lists and its share of the bytes (the index's entries hold
 * the same columns as the rows, so its size is shared out by the rows' bytes). Beside it, the GIN
 * baseline's text index is built again and timed. The copies are dropped afterwards.
 */
import { performance } from "node:perf_hooks";
import type pg from "pg";

export interface KindFootprint {
  kind: string;
  postings: number;
  lists: number;
  rowBytes: number;
}

export interface IndexFootprint {
  kinds: KindFootprint[];
  tableBytes: number;
  indexBytes: number;
  fillSeconds: number;
  indexSeconds: number;
  gin: { bytes: number; seconds: number };
}

const KIND_NAMES: Record<string, string> = {
  "w:": "words",
  "t:": "tags",
  "c:": "category × signal pattern",
  "p:": "signal patterns",
  "b:": "wide beginnings",
};

const COPY = "bench_footprint_postings";

async function timed(client: pg.Client, statement: string): Promise<number> {
  const started = performance.now();
  await client.query(statement);
  return (performance.now() - started) / 1000;
}

export async function indexFootprint(client: pg.Client): Promise<IndexFootprint> {
  const definition = await client.query<{ indexdef: string }>(
    "select indexdef from pg_indexes where indexname = 'search_postings_list'",
  );
  const listIndex = definition.rows[0]?.indexdef;
  if (!listIndex) throw new Error("search_postings_list is missing");
  await client.query("set maintenance_work_mem = '1GB'");
  await client.query(`drop table if exists ${COPY}`);
  await client.query(`create table ${COPY} (like search_postings)`);
  try {
    const fillSeconds = await timed(
      client,
      `insert into ${COPY} select p.* from sites, lateral search_postings_of(sites) as p`,
    );
    const indexSeconds = await timed(
      client,
      listIndex.replace("search_postings_list", `${COPY}_list`).replace(/ON public\.search_postings /, `ON ${COPY} `),
    );
    const kinds = await client.query<{ kind: string; postings: string; lists: string; row_bytes: string }>(
      `select left(term, 2) as kind, count(*) as postings, count(distinct term) as lists,
         sum(pg_column_size(p.*)) as row_bytes
       from ${COPY} p group by 1 order by 2 desc`,
    );
    const sizes = await client.query<{ table_bytes: string; index_bytes: string }>(
      `select pg_table_size('${COPY}') as table_bytes, pg_indexes_size('${COPY}') as index_bytes`,
    );
    const ginSeconds = await timed(client, "create index bench_footprint_gin on sites using gin (search_vector)");
    const ginSize = await client.query<{ bytes: string }>("select pg_relation_size('bench_footprint_gin') as bytes");
    await client.query("drop index bench_footprint_gin");
    return {
      kinds: kinds.rows.map((row) => ({
        kind: row.kind,
        postings: Number(row.postings),
        lists: Number(row.lists),
        rowBytes: Number(row.row_bytes),
      })),
      tableBytes: Number(sizes.rows[0]?.table_bytes),
      indexBytes: Number(sizes.rows[0]?.index_bytes),
      fillSeconds,
      indexSeconds,
      gin: { bytes: Number(ginSize.rows[0]?.bytes), seconds: ginSeconds },
    };
  } finally {
    await client.query(`drop table if exists ${COPY}`);
  }
}

const megabytes = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;

export function footprintTable(footprint: IndexFootprint): string {
  const allRowBytes = footprint.kinds.reduce((sum, kind) => sum + kind.rowBytes, 0);
  const total = footprint.tableBytes + footprint.indexBytes;
  const lines = [
    `posting lists, built fresh: rows ${megabytes(footprint.tableBytes)} in ${footprint.fillSeconds.toFixed(0)} s, list index ${megabytes(footprint.indexBytes)} in ${footprint.indexSeconds.toFixed(0)} s; GIN baseline over the text: ${megabytes(footprint.gin.bytes)} in ${footprint.gin.seconds.toFixed(0)} s`,
    "",
    "| lists | postings | lists | postings per list | share of bytes | rows + index (est.) |",
    "|---|---|---|---|---|---|",
    ...footprint.kinds.map((kind) => {
      const share = kind.rowBytes / allRowBytes;
      return `| ${KIND_NAMES[kind.kind] ?? kind.kind} (\`${kind.kind}\`) | ${kind.postings} | ${kind.lists} | ${(kind.postings / kind.lists).toFixed(0)} | ${(share * 100).toFixed(1)}% | ${megabytes(share * total)} |`;
    }),
  ];
  return lines.join("\n");
}
