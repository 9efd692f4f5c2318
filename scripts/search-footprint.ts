/**
 * What the search index costs, per kind of list (`BENCH_FOOTPRINT=1 npm run bench:search`): the
 * postings of each kind (`w:` words, `t:` tags, `c:` categories, `p:` signal patterns), how many
 * lists they make, and their share of the table and of its list index. The index's entries hold the
 * same columns as the rows, so its size is shared out by the rows' bytes.
 */
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
  sitesBytes: number;
}

const KIND_NAMES: Record<string, string> = {
  "w:": "words",
  "t:": "tags",
  "c:": "categories",
  "p:": "signal patterns",
};

export async function indexFootprint(client: pg.Client): Promise<IndexFootprint> {
  const kinds = await client.query<{ kind: string; postings: string; lists: string; row_bytes: string }>(
    `select left(term, 2) as kind, count(*) as postings, count(distinct term) as lists,
       sum(pg_column_size(p.*)) as row_bytes
     from search_postings p group by 1 order by 2 desc`,
  );
  const sizes = await client.query<{ table_bytes: string; index_bytes: string; sites_bytes: string }>(
    `select pg_table_size('search_postings') as table_bytes, pg_indexes_size('search_postings') as index_bytes,
       pg_total_relation_size('sites') as sites_bytes`,
  );
  const size = sizes.rows[0];
  return {
    kinds: kinds.rows.map((row) => ({
      kind: row.kind,
      postings: Number(row.postings),
      lists: Number(row.lists),
      rowBytes: Number(row.row_bytes),
    })),
    tableBytes: Number(size?.table_bytes),
    indexBytes: Number(size?.index_bytes),
    sitesBytes: Number(size?.sites_bytes),
  };
}

const megabytes = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;

export function footprintTable(footprint: IndexFootprint): string {
  const allRowBytes = footprint.kinds.reduce((sum, kind) => sum + kind.rowBytes, 0);
  const total = footprint.tableBytes + footprint.indexBytes;
  const lines = [
    `search_postings: table ${megabytes(footprint.tableBytes)}, indexes ${megabytes(footprint.indexBytes)}; sites with its indexes ${megabytes(footprint.sitesBytes)}`,
    "",
    "| lists | postings | lists | postings per list | share of bytes | table + index (est.) |",
    "|---|---|---|---|---|---|",
    ...footprint.kinds.map((kind) => {
      const share = kind.rowBytes / allRowBytes;
      return `| ${KIND_NAMES[kind.kind] ?? kind.kind} (\`${kind.kind}\`) | ${kind.postings} | ${kind.lists} | ${(kind.postings / kind.lists).toFixed(0)} | ${(share * 100).toFixed(1)}% | ${megabytes(share * total)} |`;
    }),
  ];
  return lines.join("\n");
}
