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
import type { DriverKind } from "../../src/domain/search/search-plan.ts";
import {
  runSearchQuery,
  SEARCH_PAGE_SIZE,
  SEARCH_RESULT_WINDOW,
  TIER_KEYS,
} from "../../src/domain/search/search-sites.ts";
import type { TermStatistics } from "../../src/domain/search/search-statistics.ts";
import { filterCondition, type SiteFilters } from "../../src/domain/search/site-filters.ts";
import { queryWords, tsQueryText } from "../../src/domain/search/text-query.ts";
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

/**
 * The page and total a search must give, from the sites table alone: the first window + 1
 * matches in organic order, then, with words, ordered by the relevance tier keys (for each, how
 * many of the query's words those fields of `tier_vector` lack, each word's own tsquery with the
 * keys' weights), then organic order.
 */
async function referenceSearch(db: Database, q: string | undefined, filters: SiteFilters, page: number) {
  const terms = q ? tsQueryText(q) : null;
  const text = terms ? sql`and ${sites.searchVector} @@ to_tsquery('english', ${terms})` : sql``;
  const words = q ? queryWords(q) : [];
  const keys = TIER_KEYS.map(({ fields }) => {
    const missing = words.map((word) => {
      const query = sql`to_tsquery('english', ${`${tsQueryText(word)}${word.length >= 3 ? "" : ":"}${fields}`})`;
      return sql`case when numnode(${query}) = 0 or ${sites.tierVector} @@ ${query} then 0 else 1 end`;
    });
    return missing.length ? sql.join(missing, sql` + `) : sql`0`;
  });
  const keyColumns = sql.join(
    keys.map((key, index) => sql`${key} as ${sql.raw(`k${index}`)}`),
    sql`, `,
  );
  const keyOrder = sql.raw(keys.map((_, index) => `w.k${index}`).join(", "));
  const rows = await db.execute(sql`
    select w.domain from (
      select ${sites.domain} as domain, ${sites.agenticScore} as score, ${sites.organicTiebreak} as tiebreak,
        ${keyColumns}
      from ${sites} where ${filterCondition(filters)} ${text}
      order by ${sites.agenticScore} desc, ${sites.organicTiebreak}, ${sites.domain} limit ${SEARCH_RESULT_WINDOW + 1}
    ) w order by ${keyOrder}, w.score desc, w.tiebreak, w.domain`);
  const domains = rows.rows.map((row) => String(row.domain));
  const start = (page - 1) * SEARCH_PAGE_SIZE;
  return {
    domains: domains.slice(start, start + SEARCH_PAGE_SIZE),
    total: Math.min(domains.length, SEARCH_RESULT_WINDOW),
  };
}

/**
 * The kinds of list a test forces to drive: the plan's kinds, and a registered beginning's own
 * list (a word driver of one `b:` term).
 */
type ForcedKind = DriverKind | "beginning";

/** Statistics under which the lists of one kind are the shortest, so that kind drives. */
const forcing = (kind: ForcedKind): TermStatistics => {
  const prefix = { word: "w:", beginning: "b:", tag: "t:", category: "c:", signals: "p:" }[kind];
  // A wide word's range competes as a word: short when words are forced, long otherwise.
  const length = (forced: boolean) => (forced ? 1 : 1_000_000);
  return {
    listLength: (term) => length(term.startsWith(prefix)),
    rangeLength: () => length(kind === "word"),
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

  it("runs every kind of driver to the same page and total as the reference query", async () => {
    const kinds: ForcedKind[] = ["word", "beginning", "tag", "category", "signals"];
    let compared = 0;
    let ranges = 0;
    let beginnings = 0;
    for (const testCase of cases()) {
      const expected = await referenceSearch(db, testCase.q, testCase.filters, testCase.page);
      for (const kind of kinds) {
        let driver: string | undefined;
        const page = await runSearchQuery(run, testCase, {
          statistics: forcing(kind),
          observePlan: (plan) => {
            driver = plan.driver.terms[0]?.startsWith("b:") ? plan.driver.terms.join() : plan.driver.kind;
            if (plan.driver.range) ranges += 1;
            if (plan.driver.terms[0]?.startsWith("b:")) beginnings += 1;
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
    expect(compared).toBe(200);
    expect(ranges).toBeGreaterThan(0);
    expect(beginnings).toBeGreaterThan(10);
  }, 150_000);

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
          statistics: forcing("beginning"),
          observePlan: (plan) => {
            terms = plan.driver.terms;
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
    const split = await runSearchQuery(run, { q: "terr", filters: {}, page: 1 }, { statistics: forcing("beginning") });
    expect({ domains: split.results.map((site) => site.domain), total: split.total }).toEqual(
      await referenceSearch(db, "terr", {}, 1),
    );
    await db.delete(sites).where(sql`${sites.domain} = 'terrific-tools.example'`);
    expect(await driverOf("terr")).toEqual(["b:terra"]);

    await db.delete(searchBeginnings).where(sql`${searchBeginnings.beginning} = 'nova'`);
    expect((await beginningListLengths(db)).nova).toBeUndefined();
    expect(await postingsDrift(db)).toBe(0);
    // A search for the word is planned without the list, to the same results.
    const unlisted = await runSearchQuery(
      run,
      { q: "nova", filters: {}, page: 1 },
      { statistics: forcing("beginning") },
    );
    expect({ domains: unlisted.results.map((site) => site.domain), total: unlisted.total }).toEqual(
      await referenceSearch(db, "nova", {}, 1),
    );
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
    const munich = "xn--mnchen-3ya.de";
    expect(await found("münchen")).toEqual([munich]);
    expect(await found("MÜNCHEN")).toEqual([munich]);
    // A prefix of the Unicode label, and the label typed decomposed (u + combining diaeresis).
    expect(await found("münch")).toEqual([munich]);
    expect(await found("mu\u0308nchen")).toEqual([munich]);
    expect(await found("xn--mnchen-3ya")).toEqual([munich]);
    // Each spelling of the whole domain names it exactly.
    expect(await found("münchen.de")).toEqual([munich]);
    expect(await found("xn--mnchen-3ya.de")).toEqual([munich]);
    // The Unicode labels split at hyphens like ASCII ones.
    expect(await found("bücher wetter")).toEqual(["xn--bcher-wetter-dlb.example"]);
    expect(await found("wetter")).toContain("xn--bcher-wetter-dlb.example");
    expect(await found("пример")).toEqual(["xn--e1afmkfd.xn--80akhbyknj4f"]);
    expect(await found("Испытание")).toEqual(["xn--e1afmkfd.xn--80akhbyknj4f"]);
    expect(await found("пример.испытание")).toEqual(["xn--e1afmkfd.xn--80akhbyknj4f"]);
    expect(await found("例え")).toEqual(["xn--r8jz45g.xn--zckzah"]);
    expect(await found("例え.テスト")).toEqual(["xn--r8jz45g.xn--zckzah"]);
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
    const expected = await referenceSearch(db, undefined, { tag: "changed" }, 1);
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
