/**
 * The search index (search_postings) over the real driver and both backends of the local stack:
 * the trigger keeps it exactly what the sites say through inserts, updates, deletes and
 * truncation, and a search returns the same page and total whichever list drives it — compared
 * with a plain reference query over the sites table for many queries and filter sets.
 */
import { domainToASCII, domainToUnicode } from "node:url";
import { getTableColumns, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { searchBeginnings, sites } from "../../db/schema/index.ts";
import { generateDemoSites, seededRandom } from "../../db/seed/demo-index.ts";
import { type LocalStack, startLocalStack } from "../../scripts/local-stack.ts";
import { migrate } from "../../scripts/migrate.ts";
import { createDatabase, type Database, type RunSqlBatch, sqlBatchRunner } from "../../src/adapters/db.ts";
import { RANKING, rankedDepth, rankedLists, SCORE_DIGITS } from "../../src/domain/search/ranked-search.ts";
import type { DriverKind } from "../../src/domain/search/search-plan.ts";
import { isAuditCategory } from "../../src/domain/search/search-plan.ts";
import { runSearchQuery, SEARCH_PAGE_SIZE, SEARCH_RESULT_WINDOW } from "../../src/domain/search/search-sites.ts";
import { type TermStatistics, UNKNOWN_STATISTICS } from "../../src/domain/search/search-statistics.ts";
import { parseStemTerms, stemTermsStatement } from "../../src/domain/search/search-terms.ts";
import { filterCondition, type SiteFilters } from "../../src/domain/search/site-filters.ts";
import { queryWords } from "../../src/domain/search/text-query.ts";
import {
  MAX_LEXEMES_PER_SITE,
  MAX_SITE_SHARE,
  refreshWideBeginnings,
  wideBeginningShapes,
} from "../../src/domain/search/wide-beginnings.ts";
import { CATEGORIES } from "../../src/domain/sites/site-fields.ts";
import { freshServerDatabase } from "../support/server-database.ts";

const serverDatabase = process.env.TEST_DATABASE_URL || undefined;
const variants = [
  { name: "embedded PGlite", server: false },
  ...(serverDatabase ? [{ name: "a Postgres server", server: true }] : []),
];

/** Postings that differ between the table and a recomputation from the sites, either way. */
async function postingsDrift(db: Database): Promise<number> {
  const result = await db.execute(sql`
    select count(*)::int as drift from (
      (select * from search_postings except all select p.* from sites, lateral search_postings_of(sites) p)
      union all
      (select p.* from sites, lateral search_postings_of(sites) p except all select * from search_postings)
    ) d`);
  return Number(result.rows[0]?.drift);
}

/** The page and total of filters alone, from the sites table: organic order, up to the window. */
async function referenceFilterSearch(db: Database, filters: SiteFilters, page: number) {
  const rows = await db.execute(sql`
    select ${sites.domain} as domain from ${sites} where ${filterCondition(filters)}
    order by ${sites.agenticScore} desc, ${sites.organicTiebreak}, ${sites.domain} limit ${SEARCH_RESULT_WINDOW + 1}`);
  const domains = rows.rows.map((row) => String(row.domain));
  const start = (page - 1) * SEARCH_PAGE_SIZE;
  return {
    domains: domains.slice(start, start + SEARCH_PAGE_SIZE),
    total: Math.min(domains.length, SEARCH_RESULT_WINDOW),
  };
}

/**
 * The page and total a ranked search must give (ranked-search.ts), scored exhaustively from the
 * sites table: the query's lists are the search's own (its first step), and everything after is
 * recomputed here from every site that the filters keep, each site's impacts recomputed from
 * its row: each list cut to the depth in impact order, then organic order; each list's idf from
 * its length over the inventory; a word's best list per site; request words never making a match;
 * the readiness factor; ties in organic order.
 */
async function referenceRankedSearch(db: Database, q: string, filters: SiteFilters, page: number) {
  const words = queryWords(q);
  const audit = isAuditCategory(filters.category);
  const stems = parseStemTerms((await db.execute(stemTermsStatement(words, audit))).rows);
  const lists = rankedLists(words, stems, UNKNOWN_STATISTICS);
  const empty = { domains: [] as string[], total: 0, exact: true };
  if (lists.length === 0) return empty;
  const depth = rankedDepth(lists.length, SEARCH_RESULT_WINDOW + 1);
  const inventory = await db.execute(
    sql`select count(*)::float8 as n from ${sites} where search_is_audit(${sites.category}) = ${audit}`,
  );
  const population = Math.max(Number(inventory.rows[0]?.n), 1);
  const rows = await db.execute(sql`
    select ${sites.domain} as domain, ${sites.agenticScore} as score, ${sites.organicTiebreak}::text as tiebreak,
      ${sites.siteKey} as site_key, t.term, t.impact
    from ${sites}, lateral search_term_impacts(sites, search_signal_bits(${sites.hasStructuredApi},
      ${sites.hasMcpServer}, ${sites.hasOpenapi}, ${sites.hasLlmsTxt})) t
    where ${filterCondition(filters)} and t.term = any(${sql.param(lists.map((list) => list.term))}::text[])`);
  type Posting = { domain: string; score: number; tiebreak: bigint; siteKey: number; impact: number };
  const organic = (a: Posting, b: Posting) =>
    b.score - a.score || (a.tiebreak < b.tiebreak ? -1 : a.tiebreak > b.tiebreak ? 1 : 0) || a.siteKey - b.siteKey;
  const byTerm = new Map<string, Posting[]>();
  for (const row of rows.rows) {
    const posting = {
      domain: String(row.domain),
      score: Number(row.score),
      tiebreak: BigInt(String(row.tiebreak)),
      siteKey: Number(row.site_key),
      impact: Number(row.impact),
    };
    byTerm.set(String(row.term), [...(byTerm.get(String(row.term)) ?? []), posting]);
  }
  const read = lists.map((list) =>
    (byTerm.get(list.term) ?? []).sort((a, b) => b.impact - a.impact || organic(a, b)).slice(0, depth),
  );
  const idfs = read.map((postings) => {
    const length = Math.min(postings.length, depth);
    return Math.log(1 + (population - length + 0.5) / (length + 0.5));
  });
  const weights = lists.map((list, index) => {
    const idf = idfs[index] ?? 0;
    const own = Math.max(
      ...lists.flatMap((other, at) => (other.word === list.word && other.own ? [idfs[at] ?? 0] : [])),
    );
    const weight = list.own ? idf : RANKING.prefixShare * Math.min(idf, Number.isFinite(own) ? own : idf);
    return weight * (list.request ? RANKING.requestShare : 1);
  });
  // site → word → best part; and whether a word that is not a request word matched.
  const sitesRead = new Map<string, { posting: Posting; parts: Map<number, number>; matched: boolean }>();
  lists.forEach((list, index) => {
    for (const posting of read[index] ?? []) {
      const site = sitesRead.get(posting.domain) ?? { posting, parts: new Map(), matched: false };
      const part = (weights[index] ?? 0) * (posting.impact / 1000 + (list.request ? 0 : RANKING.matchBonus));
      site.parts.set(list.word, Math.max(site.parts.get(list.word) ?? 0, part));
      site.matched ||= !list.request;
      sitesRead.set(posting.domain, site);
    }
  });
  const scale = 10 ** SCORE_DIGITS;
  const ranked = [...sitesRead.values()]
    .filter((site) => site.matched)
    .map((site) => {
      const relevance = [...site.parts.values()].reduce((sum, part) => sum + part, 0);
      return {
        posting: site.posting,
        score: Math.round(relevance * (1 + (RANKING.readiness * site.posting.score) / 100) * scale) / scale,
      };
    })
    .sort((a, b) => b.score - a.score || organic(a.posting, b.posting));
  const start = (page - 1) * SEARCH_PAGE_SIZE;
  return {
    domains: ranked.slice(start, start + SEARCH_PAGE_SIZE).map((site) => site.posting.domain),
    total: Math.min(ranked.length, SEARCH_RESULT_WINDOW),
    exact: read.every((postings) => postings.length < depth) && ranked.length <= SEARCH_RESULT_WINDOW,
  };
}

/** Statistics under which the lists of one kind are the shortest, so that kind drives. */
const forcing = (kind: DriverKind): TermStatistics => {
  const prefix = { tag: "t:", category: "c:", signals: "p:" }[kind];
  return {
    listLength: (term) => (term.startsWith(prefix) ? 1 : 1_000_000),
    rangeLength: () => 1_000_000,
  };
};

const random = seededRandom(7);
const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T;
// "terra" and "nova" begin so many domain labels (terraprompt, novaledger, …) that they are wide.
// Several of these words are registered as wide beginnings (REGISTERED_BEGINNINGS).
const WORDS = [
  "team",
  "clin",
  "agents weather",
  "deploy",
  "mcp tools",
  "terra",
  "nova labs",
  "terr",
  "novaledger",
  "read",
  "zzzqx",
  "the",
  "co",
  "münchen",
  "пример",
];
const TAGS = ["mcp", "openapi", "search", "payment", "weather", "llms-txt", "ads"];
/** Beginnings given lists of their own: the stems of some query words, wide or not. */
const REGISTERED_BEGINNINGS = ["terra", "nova", "team", "clin", "deploy", "novaledg"];

/** The number of sites each registered beginning's list holds, by beginning. */
async function beginningListLengths(db: Database): Promise<Record<string, number>> {
  const result = await db.execute(sql`
    select substr(term, 3) as beginning, count(*)::int as n from search_postings
    where term like 'b:%' group by term order by term`);
  return Object.fromEntries(result.rows.map((row) => [String(row.beginning), Number(row.n)]));
}

/** The number of sites with a lexeme that begins with `beginning`, from the sites table alone. */
async function sitesBeginningWith(db: Database, beginning: string): Promise<number> {
  const result = await db.execute(
    sql`select count(*)::int as n from ${sites} where ${sites.searchVector} @@ (quote_literal(${beginning}) || ':*')::tsquery`,
  );
  return Number(result.rows[0]?.n);
}

/**
 * Sites stored, as the index keys them, under punycode (xn--) labels: münchen.de,
 * bücher-wetter.example, пример.испытание, 例え.テスト; and a label that is not valid punycode, which
 * the index must take as it is. Their names do not repeat their domains.
 */
const INTERNATIONAL_SITES = [
  { domain: "xn--mnchen-3ya.de", name: "Stadtportal" },
  { domain: "xn--bcher-wetter-dlb.example", name: "Lesewetter", agenticScore: 90 },
  { domain: "xn--e1afmkfd.xn--80akhbyknj4f", name: "Test domain" },
  { domain: "xn--r8jz45g.xn--zckzah", name: "Test domain" },
  { domain: "xn--zz99999999999.example", name: "Broken label" },
];

type SiteInsert = typeof sites.$inferInsert;

async function insertInternationalSites(
  db: Database,
  insert: (rows: SiteInsert[]) => Promise<unknown> = (rows) => db.insert(sites).values(rows),
): Promise<void> {
  await insert(
    INTERNATIONAL_SITES.map((site) => ({
      url: `https://${site.domain}/`,
      description: "A site with an internationalised name.",
      category: "news" as const,
      agenticScore: 40,
      ...site,
    })),
  );
}

/**
 * Inserts sites into a database migrated only up to an earlier migration, through the columns
 * the rows name: the schema's later columns (sites.site_key, migration 0025) are not there yet.
 */
async function insertIntoEarlierSchema(db: Database, rows: SiteInsert[]): Promise<void> {
  const columns = getTableColumns(sites);
  for (const row of rows) {
    const named = Object.entries(row)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => ({ column: columns[key as keyof typeof columns], value }));
    const names = sql.join(
      named.map(({ column }) => sql.identifier(column.name)),
      sql`, `,
    );
    const values = sql.join(
      named.map(({ column, value }) => sql.param(value, column)),
      sql`, `,
    );
    await db.execute(sql`insert into sites (${names}) values (${values})`);
  }
}

/** The domains a search of q alone lists first. */
async function findDomains(run: RunSqlBatch, q: string): Promise<string[]> {
  const page = await runSearchQuery(run, { q, filters: {}, page: 1 });
  return page.results.map((site) => site.domain);
}

/** Unicode labels of many scripts, lengths and mixes with ASCII, each distinct and valid in IDNA. */
function idnLabels(): string[] {
  const alphabets = [
    "äöüßéèçñåøæœ",
    "αβγδεζηθικλμνξοπρστυφχψω",
    "абвгдежзийклмнопрстуфхцчшщыэюя",
    "あいうえおかきくけこさしすせそたちつてと",
    "中文网络搜索引擎数据天气",
    "ابتثجحخدذرزسشصضطظعغفقكلمنهوي",
    "कखगघचछजझटठडढणतथदधनपफबभमयरलवशसह",
    "abcxyz0123456789",
  ];
  const labels = new Set<string>(["münchen", "bücher-wetter", "пример", "例え", "straße", "ελληνικά", "日本語"]);
  const random = seededRandom(3492);
  const choose = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T;
  while (labels.size < 300) {
    // One script, or two mixed.
    const letters = [...choose(alphabets), ...(random() < 0.4 ? choose(alphabets) : "")];
    const length = 1 + Math.floor(random() * 20);
    let label = Array.from({ length }, () => choose(letters)).join("");
    if (random() < 0.2) label = `${label.slice(0, length / 2)}-${label.slice(length / 2)}`;
    const ascii = domainToASCII(`${label}.example`);
    if (ascii.startsWith("xn--")) labels.add(label);
  }
  return [...labels];
}

/** A deterministic mix of queries and filter sets, with pages past the first. */
function cases(): { q?: string; filters: SiteFilters; page: number }[] {
  const flag = () => (random() < 0.3 ? random() < 0.6 : undefined);
  return Array.from({ length: 40 }, (_, index) => {
    const filters: SiteFilters = {
      category: random() < 0.4 ? pick(CATEGORIES) : undefined,
      tag: random() < 0.35 ? pick(TAGS) : undefined,
      minScore: random() < 0.3 ? 10 * Math.floor(random() * 8) : undefined,
      hasApi: flag(),
      hasMcp: flag(),
      hasOpenapi: flag(),
      hasLlmsTxt: flag(),
    };
    const defined = Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined));
    return {
      q: index % 4 === 3 ? undefined : pick(WORDS),
      filters: defined as SiteFilters,
      page: index % 5 === 4 ? 2 : 1,
    };
  });
}

describe.each(variants)("search index on $name", ({ server }) => {
  let stack: LocalStack;
  let db: Database;
  let run: RunSqlBatch;

  beforeAll(async () => {
    stack = await startLocalStack({
      databaseUrl: server && serverDatabase ? await freshServerDatabase(serverDatabase, "search_index") : undefined,
      pgliteDataDir: "memory",
      pgliteStartFrom: inject("migratedPglite"),
      sqlPort: 0,
      redisPort: 0,
    });
    await migrate({ databaseUrl: stack.databaseUrl, localHttp: true });
    db = createDatabase({ DATABASE_URL: stack.databaseUrl, DATABASE_LOCAL_HTTP: true });
    run = sqlBatchRunner(db);
    const rows = generateDemoSites({ count: 1500, seed: 99 });
    // Beginnings registered over sites already written, and sites written after them.
    for (let start = 0; start < rows.length; start += 500) {
      await db.insert(sites).values(rows.slice(start, start + 500));
      if (start === 500)
        await db.insert(searchBeginnings).values(REGISTERED_BEGINNINGS.map((beginning) => ({ beginning })));
    }
    await insertInternationalSites(db);
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it("lists every site under its terms as the sites are written", async () => {
    expect(await postingsDrift(db)).toBe(0);
    const count = await db.execute(sql`select count(*)::int as n from search_postings`);
    expect(Number(count.rows[0]?.n)).toBeGreaterThan(1500 * 8);
  });

  it("ranks every query exactly as the exhaustive reference scores it, whatever the statistics say", async () => {
    let compared = 0;
    for (const testCase of cases()) {
      if (testCase.q === undefined) continue;
      const expected = await referenceRankedSearch(db, testCase.q, testCase.filters, testCase.page);
      // The statistics only size a cut list's idf: with none known, the ranking is the reference's.
      const page = await runSearchQuery(run, testCase, { statistics: UNKNOWN_STATISTICS });
      const label = JSON.stringify(testCase);
      expect(
        page.results.map((site) => site.domain),
        label,
      ).toEqual(expected.domains);
      expect(page.total, label).toBe(expected.total);
      expect(page.totalExact, label).toBe(expected.exact);
      compared += 1;
    }
    expect(compared).toBe(30);
  }, 150_000);

  it("runs filters alone, whichever list drives, to the reference's page and total", async () => {
    const kinds: DriverKind[] = ["tag", "category", "signals"];
    let compared = 0;
    for (const testCase of cases()) {
      if (testCase.q !== undefined) continue;
      const expected = await referenceFilterSearch(db, testCase.filters, testCase.page);
      for (const kind of kinds) {
        let driver: string | undefined;
        const page = await runSearchQuery(run, testCase, {
          statistics: forcing(kind),
          observePlan: (plan) => {
            driver = plan.driver.kind;
          },
        });
        const label = `${JSON.stringify(testCase)} driven by ${driver ?? "nothing"}`;
        expect(
          page.results.map((site) => site.domain),
          label,
        ).toEqual(expected.domains);
        expect(page.total, label).toBe(expected.total);
        compared += 1;
      }
    }
    expect(compared).toBe(30);
  }, 150_000);

  it("pages through one ranking: every page a slice of it, none repeated, none left out", async () => {
    for (const q of ["agents weather", "team", "i need mcp tools to deploy"]) {
      const first = await runSearchQuery(run, { q, filters: {}, page: 1 });
      const pages = Math.min(Math.ceil(first.total / SEARCH_PAGE_SIZE), 6);
      const seen: string[] = [];
      for (let page = 1; page <= pages; page++)
        seen.push(...(await runSearchQuery(run, { q, filters: {}, page })).results.map((site) => site.domain));
      expect(new Set(seen).size, q).toBe(seen.length);
      expect(seen.length, q).toBe(Math.min(first.total, pages * SEARCH_PAGE_SIZE));
    }
  }, 60_000);

  it("keeps a wide beginning's list to the sites of its word as it is registered and unregistered", async () => {
    const lengths = await beginningListLengths(db);
    expect(Object.keys(lengths)).toEqual([...REGISTERED_BEGINNINGS].sort());
    for (const beginning of REGISTERED_BEGINNINGS) {
      expect(lengths[beginning], beginning).toBe(await sitesBeginningWith(db, beginning));
      expect(lengths[beginning], beginning).toBeGreaterThan(0);
    }
    // A stem uses the list of a beginning with the same lexemes: itself, a longer or a shorter one.
    const driverOf = async (q: string) => {
      let terms: string[] = [];
      await runSearchQuery(
        run,
        { q, filters: {}, page: 1 },
        {
          observeLists: (lists) => {
            terms = lists.map((list) => list.term).filter((term) => term.startsWith("b:"));
          },
        },
      );
      return terms;
    };
    const lexemesBeginning = async (beginning: string) =>
      (
        await db.execute(sql`select distinct substr(term, 3) as lexeme from search_postings
          where audit = false and term >= ${`w:${beginning}`} and term < ${`w:${beginning}\u{10FFFF}`} order by 1`)
      ).rows.map((row) => String(row.lexeme));
    expect(await lexemesBeginning("terr")).toEqual(await lexemesBeginning("terra"));
    expect(await driverOf("terr")).toEqual(["b:terra"]);
    expect(await driverOf("terra")).toEqual(["b:terra"]);
    // "novaledger" is stemmed "novaledg".
    expect(await driverOf("novaledger")).toEqual(["b:novaledg"]);
    expect(await lexemesBeginning("nova")).not.toEqual(await lexemesBeginning("novaledg"));
    expect(await driverOf("nova")).toEqual(["b:nova"]);
    // A lexeme under "terr" but not "terra" (a site's "terrific") splits them.
    await db.insert(sites).values({
      domain: "terrific-tools.example",
      url: "https://terrific-tools.example/",
      name: "Terrific Tools",
      category: "developer",
      agenticScore: 60,
    });
    expect(await driverOf("terr")).not.toEqual(["b:terra"]);
    const split = await runSearchQuery(run, { q: "terr", filters: {}, page: 1 }, { statistics: UNKNOWN_STATISTICS });
    const splitExpected = await referenceRankedSearch(db, "terr", {}, 1);
    expect({ domains: split.results.map((site) => site.domain), total: split.total }).toEqual({
      domains: splitExpected.domains,
      total: splitExpected.total,
    });
    await db.delete(sites).where(sql`${sites.domain} = 'terrific-tools.example'`);
    expect(await driverOf("terr")).toEqual(["b:terra"]);

    await db.delete(searchBeginnings).where(sql`${searchBeginnings.beginning} = 'nova'`);
    expect((await beginningListLengths(db)).nova).toBeUndefined();
    expect(await postingsDrift(db)).toBe(0);
    // A search for the word is planned without the list, to the same results.
    const unlisted = await runSearchQuery(run, { q: "nova", filters: {}, page: 1 }, { statistics: UNKNOWN_STATISTICS });
    const unlistedExpected = await referenceRankedSearch(db, "nova", {}, 1);
    expect({ domains: unlisted.results.map((site) => site.domain), total: unlisted.total }).toEqual({
      domains: unlistedExpected.domains,
      total: unlistedExpected.total,
    });
    await db.insert(searchBeginnings).values({ beginning: "nova" });
    expect((await beginningListLengths(db)).nova).toBe(await sitesBeginningWith(db, "nova"));
    expect(await postingsDrift(db)).toBe(0);
  });

  it("refuses to change, truncate or lengthen a beginning, and to write sites on an older snapshot", async () => {
    const refused = async (statement: ReturnType<typeof sql>) =>
      db.execute(statement).then(
        () => "done",
        (error: unknown) => String((error as { cause?: Error }).cause?.message ?? error),
      );
    expect(await refused(sql`update search_beginnings set beginning = 'terr' where beginning = 'terra'`)).toMatch(
      /never changed/,
    );
    expect(await refused(sql`truncate search_beginnings`)).toMatch(/unregistered by DELETE/);
    expect(await refused(sql`insert into search_beginnings (beginning) values ('ab')`)).toMatch(
      /search_beginnings_length/,
    );
    expect(await refused(sql`insert into search_beginnings (beginning) values ('abcdefghi')`)).toMatch(
      /search_beginnings_length/,
    );
    const repeatable = await run([
      sql`set transaction isolation level repeatable read`,
      sql`update ${sites} set description = description || ' terrace' where ${sites.domain} = (select min(domain) from ${sites})`,
    ]).then(
      () => "done",
      (error: unknown) => String((error as { cause?: Error }).cause?.message ?? error),
    );
    expect(repeatable).toMatch(/READ COMMITTED/);
    expect(Object.keys(await beginningListLengths(db))).toEqual([...REGISTERED_BEGINNINGS].sort());
    expect(await postingsDrift(db)).toBe(0);
  });

  it("registers a beginning while sites are written, and lists exactly the sites of the end", async () => {
    const domains = (await db.execute(sql`select domain from ${sites} order by organic_tiebreak limit 60`)).rows.map(
      (row) => String(row.domain),
    );
    const writes = domains.map((domain, index) =>
      index % 3 === 0
        ? db.execute(
            sql`update ${sites} set description = description || ' teleport' where ${sites.domain} = ${domain}`,
          )
        : index % 3 === 1
          ? db.execute(
              sql`update ${sites} set name = 'Tele ' || name, agentic_score = 77 where ${sites.domain} = ${domain}`,
            )
          : db.insert(sites).values({
              domain: `tele-${index}.example`,
              url: `https://tele-${index}.example/`,
              name: `Telemetry ${index}`,
              category: "data",
              agenticScore: index,
            }),
    );
    await Promise.all([
      ...writes.slice(0, 30),
      db.insert(searchBeginnings).values({ beginning: "tele" }),
      ...writes.slice(30),
    ]);
    expect((await beginningListLengths(db)).tele).toBe(await sitesBeginningWith(db, "tele"));
    expect(await postingsDrift(db)).toBe(0);
    await db.delete(searchBeginnings).where(sql`${searchBeginnings.beginning} = 'tele'`);
    expect(await postingsDrift(db)).toBe(0);
  });

  it("finds a site stored as punycode by its Unicode and its punycode spelling", async () => {
    const found = (q: string) => findDomains(run, q);
    // A query of several words or labels also finds what matches some of them, after it.
    const first = async (q: string) => [(await found(q))[0]];
    const munich = "xn--mnchen-3ya.de";
    expect(await found("münchen")).toEqual([munich]);
    expect(await found("MÜNCHEN")).toEqual([munich]);
    // A prefix of the Unicode label, and the label typed decomposed (u + combining diaeresis).
    expect(await found("münch")).toEqual([munich]);
    expect(await found("mu\u0308nchen")).toEqual([munich]);
    expect(await first("xn--mnchen-3ya")).toEqual([munich]);
    // Each spelling of the whole domain names it exactly.
    expect(await first("münchen.de")).toEqual([munich]);
    expect(await first("xn--mnchen-3ya.de")).toEqual([munich]);
    // The Unicode labels split at hyphens like ASCII ones.
    expect(await first("bücher wetter")).toEqual(["xn--bcher-wetter-dlb.example"]);
    expect(await found("wetter")).toContain("xn--bcher-wetter-dlb.example");
    expect(await found("пример")).toEqual(["xn--e1afmkfd.xn--80akhbyknj4f"]);
    expect(await found("Испытание")).toEqual(["xn--e1afmkfd.xn--80akhbyknj4f"]);
    expect(await first("пример.испытание")).toEqual(["xn--e1afmkfd.xn--80akhbyknj4f"]);
    expect(await found("例え")).toEqual(["xn--r8jz45g.xn--zckzah"]);
    expect(await first("例え.テスト")).toEqual(["xn--r8jz45g.xn--zckzah"]);
    // A label that is not valid punycode is indexed as its ASCII spelling alone.
    expect(await found("zz99999999999")).toEqual(["xn--zz99999999999.example"]);
  });

  it("decodes punycode labels as the URL parser's IDNA does", async () => {
    const labels = idnLabels();
    const encoded = labels.map((label) => domainToASCII(`${label}.example`).split(".")[0] ?? "");
    const result = await db.execute(sql`
      select search_punycode_decode(substr(label, 5)) as decoded
      from unnest(${sql.param(encoded)}::text[]) with ordinality as l(label, at) order by at`);
    const decoded = result.rows.map((row) => row.decoded);
    const expected = encoded.map((label) => domainToUnicode(`${label}.example`).split(".")[0]);
    expect(encoded.every((label) => label.startsWith("xn--"))).toBe(true);
    expect(decoded).toEqual(expected);
    // What is not punycode decodes to nothing, and never fails a write.
    const invalid = await db.execute(sql`
      select search_punycode_decode(label) as decoded
      from unnest(array['zz99999999999', '-abc', 'ab!c', '', '99999999999999999999']) as label`);
    expect(invalid.rows.map((row) => row.decoded)).toEqual([null, null, null, null, null]);
  });

  it("reads the index's wide beginnings off its word lists and refreshes the registered ones to match", async () => {
    // The counts a reference computes from the discovery sites' own lexemes.
    const lexemes = await db.execute(sql`
      select l.lexeme, count(*)::int as n from ${sites}, unnest(${sites.searchVector}) as l(lexeme)
      where ${sites.category} not in ('other', 'spam') group by 1`);
    const expected = new Map<string, { lexemes: number; postings: number }>();
    for (const row of lexemes.rows) {
      const lexeme = [...String(row.lexeme)];
      for (let length = 3; length <= Math.min(8, lexeme.length); length += 1) {
        const beginning = lexeme.slice(0, length).join("");
        const counted = expected.get(beginning) ?? { lexemes: 0, postings: 0 };
        expected.set(beginning, { lexemes: counted.lexemes + 1, postings: counted.postings + Number(row.n) });
      }
    }
    // And the sites that have a lexeme with each beginning, each site once.
    const siteBeginnings = await db.execute(sql`
      select distinct ${sites.domain} as domain, left(l.lexeme, n.length) as beginning
      from ${sites}, unnest(${sites.searchVector}) as l(lexeme),
        generate_series(3, least(8, char_length(l.lexeme))) as n(length)
      where ${sites.category} not in ('other', 'spam')`);
    const sitesWith = new Map<string, number>();
    for (const row of siteBeginnings.rows) {
      const beginning = String(row.beginning);
      sitesWith.set(beginning, (sitesWith.get(beginning) ?? 0) + 1);
    }
    const thresholds = { moreLexemesThan: 20, morePostingsThan: 40 };
    const { shapes, size } = await wideBeginningShapes(db, thresholds);
    const wide = [...expected]
      .filter(([, c]) => c.lexemes > thresholds.moreLexemesThan && c.postings > thresholds.morePostingsThan)
      // Counted only where the beginning could be within the share; else its postings stand for them.
      .map(([beginning, c]) => ({
        beginning,
        ...c,
        sites: c.postings <= MAX_LEXEMES_PER_SITE * MAX_SITE_SHARE * size.sites ? sitesWith.get(beginning) : c.postings,
      }))
      .sort((a, b) => (a.beginning < b.beginning ? -1 : 1));
    expect(wide.length).toBeGreaterThan(3);
    expect([...shapes].sort((a, b) => (a.beginning < b.beginning ? -1 : 1))).toEqual(wide);
    expect(size.sites).toBe(Number((await db.execute(sql`select count(*)::int as n from ${sites}`)).rows[0]?.n));

    // The refresh moves the registered set to what the index calls for, a bounded step at a time.
    const index = {
      shapes: shapes.slice(0, 2).map((shape, at) => ({ ...shape, lexemes: 100 + at, postings: 30_000, sites: 30_000 })),
      size: { sites: 1_000_000, postings: 10_000_000 },
    };
    const called = index.shapes.map((shape) => shape.beginning).sort();
    const registered = async () =>
      (await db.select({ beginning: searchBeginnings.beginning }).from(searchBeginnings))
        .map((r) => r.beginning)
        .sort();
    const dry = await refreshWideBeginnings(db, { index, dryRun: true });
    expect(dry.registered.sort()).toEqual(called);
    expect(await registered()).toEqual([...REGISTERED_BEGINNINGS].sort());
    const first = await refreshWideBeginnings(db, { index, maxChanges: 4 });
    expect(first.unregistered).toHaveLength(4);
    expect(first.deferred).toBe(REGISTERED_BEGINNINGS.length - 4 + called.length);
    const second = await refreshWideBeginnings(db, { index });
    expect(second.deferred).toBe(0);
    expect(await registered()).toEqual(called);
    expect(Object.keys(await beginningListLengths(db))).toEqual(called);
    expect(await postingsDrift(db)).toBe(0);
    // Back to the beginnings the other tests expect.
    await db.delete(searchBeginnings);
    await db.insert(searchBeginnings).values(REGISTERED_BEGINNINGS.map((beginning) => ({ beginning })));
    expect(await postingsDrift(db)).toBe(0);
  });

  it("follows updates, deletes and truncation", async () => {
    await db.execute(sql`
      update ${sites} set agentic_score = least(100, agentic_score + 5), tags = array_append(tags, 'changed')
      where ${sites.domain} in (select domain from ${sites} order by domain limit 50)`);
    await db.execute(
      sql`update ${sites} set category = 'spam' where ${sites.domain} in (select domain from ${sites} order by domain desc limit 20)`,
    );
    await db.execute(sql`update ${sites} set crawl_status = 'success', last_crawled_at = now()`);
    await db.execute(
      sql`delete from ${sites} where ${sites.domain} in (select domain from ${sites} order by domain limit 10 offset 100)`,
    );
    // The same words, another opening sentence: the search vector stays, the tier fields move.
    const reordered = await db.execute(sql`
      update ${sites} set description = 'Zygote quokka. ' || description
      where ${sites.domain} in (select domain from ${sites} order by domain limit 5 offset 200)
      returning ${sites.domain}`);
    await db.execute(sql`
      update ${sites} set description = substr(description, 16) || ' Zygote quokka.'
      where ${sites.domain} in (${sql.join(
        reordered.rows.map((row) => sql`${row.domain}`),
        sql`, `,
      )})`);
    const moved = await db.execute(sql`
      select count(*)::int as n from search_postings where term = 'w:zygot' and tier_fields = 0`);
    expect(moved.rows[0]?.n).toBe(5);
    expect(await postingsDrift(db)).toBe(0);
    const changed = await runSearchQuery(run, { filters: { tag: "changed" }, page: 1 });
    const expected = await referenceFilterSearch(db, { tag: "changed" }, 1);
    expect(changed.total).toBeGreaterThan(0);
    expect({ domains: changed.results.map((site) => site.domain), total: changed.total }).toEqual(expected);

    await db.execute(sql`truncate ${sites} cascade`);
    const left = await db.execute(sql`select count(*)::int as n from search_postings`);
    expect(Number(left.rows[0]?.n)).toBe(0);
  });
});

/** The journal's migrations before the internationalised domains (0006) and the top counts (0007). */
const MIGRATIONS_BEFORE_IDN = 6;

describe.each(variants)("migrations over an index already written, on $name", ({ server }) => {
  let stack: LocalStack;
  let db: Database;
  let run: RunSqlBatch;

  beforeAll(async () => {
    const databaseUrl =
      server && serverDatabase ? await freshServerDatabase(serverDatabase, "search_migration") : undefined;
    stack = await startLocalStack({ databaseUrl, pgliteDataDir: "memory", sqlPort: 0, redisPort: 0 });
    await migrate({ databaseUrl: stack.databaseUrl, localHttp: true, upTo: MIGRATIONS_BEFORE_IDN });
    db = createDatabase({ DATABASE_URL: stack.databaseUrl, DATABASE_LOCAL_HTTP: true });
    run = sqlBatchRunner(db);
    const earlier = (rows: SiteInsert[]) => insertIntoEarlierSchema(db, rows);
    await earlier(generateDemoSites({ count: 300, seed: 5 }));
    await insertInternationalSites(db, earlier);
    // On a server, the rest over a Postgres connection, as `npm run migrate -- --direct` applies
    // the migrations that outlast an HTTP request (0035 at scale); into the same journal.
    await migrate(
      databaseUrl
        ? { databaseUrl, localHttp: false, direct: true }
        : { databaseUrl: stack.databaseUrl, localHttp: true },
    );
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it("keeps one journal whichever way the migrations went: nothing is left to apply", async () => {
    expect(await migrate({ databaseUrl: stack.databaseUrl, localHttp: true })).toBe(0);
  });

  it("rewrites the postings with their tier fields (migration 0035)", async () => {
    expect(await postingsDrift(db)).toBe(0);
    const carried = await db.execute(sql`
      select count(*) filter (where tier_fields > 0)::int as n from search_postings where term like 'w:%'`);
    expect(Number(carried.rows[0]?.n)).toBeGreaterThan(300);
  });

  it("indexes the Unicode form of the punycode labels already stored", async () => {
    expect(await postingsDrift(db)).toBe(0);
    expect(await findDomains(run, "münchen")).toEqual(["xn--mnchen-3ya.de"]);
    expect(await findDomains(run, "bücher wetter")).toEqual(["xn--bcher-wetter-dlb.example"]);
    expect(await findDomains(run, "пример.испытание")).toEqual(["xn--e1afmkfd.xn--80akhbyknj4f"]);
  });

  it("counts the sites already stored for the top list (migration 0007)", async () => {
    const kept = await db.execute(sql`
      select category, signal_bits as bits, sum(site_count)::int as n from site_counts group by 1, 2 order by 1, 2`);
    const counted = await db.execute(sql`
      select category, search_signal_bits(has_structured_api, has_mcp_server, has_openapi, has_llms_txt) as bits,
        count(*)::int as n
      from ${sites} group by 1, 2 order by 1, 2`);
    expect(counted.rows.length).toBeGreaterThan(20);
    expect(kept.rows).toEqual(counted.rows);
  });
});
