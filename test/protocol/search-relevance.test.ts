/**
 * Ranking and words as agents type them (docs/discovery.md, "Ranking" and "Query understanding"),
 * through the search itself on both backends of the local stack: every word is optional, a site
 * that matches more of the query's words ranks above one that matches fewer, and among those a
 * word in the name, tags or domain counts for more than one in a long description. Domain labels
 * are found by their stemmed words, variant spellings meet, request words are left out, a
 * misspelt word is corrected and the last word is a prefix.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { sites } from "../../db/schema/index.ts";
import { type LocalStack, startLocalStack } from "../../scripts/local-stack.ts";
import { migrate } from "../../scripts/migrate.ts";
import { createDatabase, type Database, type RunSqlBatch, sqlBatchRunner } from "../../src/adapters/db.ts";
import { runSearchQuery } from "../../src/domain/search/search-sites.ts";
import { SPELLINGS, spellingsIn } from "../../src/domain/search/spellings.ts";
import { freshServerDatabase } from "../support/server-database.ts";

const serverDatabase = process.env.TEST_DATABASE_URL || undefined;
const variants = [
  { name: "embedded PGlite", server: false },
  ...(serverDatabase ? [{ name: "a Postgres server", server: true }] : []),
];

interface Fixture {
  domain: string;
  name: string;
  description: string;
  score: number;
  tags?: string[];
}

const FIXTURES: Fixture[] = [
  // "sms": named in the name, a tag or the domain; or in the description alone, as "SMS" or as
  // "text message". The platform that mentions it once has the higher score.
  { domain: "relay.example", name: "SMS Relay", description: "Send messages to phones.", score: 85 },
  { domain: "notify.example", name: "Notify", description: "Alerts for teams.", score: 50, tags: ["sms"] },
  { domain: "sms-gateway.example", name: "Gateway", description: "Connects carriers.", score: 10 },
  {
    domain: "everything.example",
    name: "Everything Platform",
    description: "Payments, e-mail, SMS and more.",
    score: 90,
  },
  { domain: "textit.example", name: "Textit", description: "Send a text message to any phone.", score: 95 },
  // "weather forecast": both words named, one named (name or domain), none named.
  { domain: "hub.example", name: "Weather Forecast Hub", description: "For everyone.", score: 20 },
  { domain: "forecast.example", name: "Skies", description: "Weather for sailors.", score: 60 },
  { domain: "now.example", name: "Weather Now", description: "An hourly forecast.", score: 70 },
  { domain: "outdoors.example", name: "Outdoors", description: "Weather forecast for hikers.", score: 99 },
  { domain: "maps.example", name: "Maps", description: "Trail forecast, weather radar.", score: 40, tags: ["weather"] },
  // "invoices": in the description's opening sentence, or later in it.
  { domain: "billing.example", name: "Billfold", description: "Invoices for freelancers. Also payroll.", score: 20 },
  { domain: "ledger.example", name: "Ledger", description: "Accounting for shops. It sends invoices too.", score: 80 },
  {
    domain: "long.example",
    name: "Long",
    description: `${"A very long opening sentence about bookkeeping ".repeat(5)}and invoices.`,
    score: 75,
  },
  // Domain labels stemmed, and variant spellings.
  { domain: "happy.example", name: "Joy", description: "Greeting cards.", score: 30 },
  { domain: "bakeries.example", name: "Crumbs", description: "Bread near you.", score: 30 },
  { domain: "mailer.example", name: "Mailer", description: "E-mail delivery for shops.", score: 45 },
  { domain: "postbox.example", name: "Postbox", description: "An email API.", score: 55 },
  { domain: "accounts.example", name: "Accounts", description: "Sign-up forms and log in pages.", score: 35 },
  { domain: "places.example", name: "Places", description: "Geocoding of street addresses.", score: 25 },
  { domain: "finder.example", name: "Finder", description: "Geocode any address.", score: 65 },
];

describe.each(variants)("search relevance on $name", ({ server }) => {
  let stack: LocalStack;
  let db: Database;
  let run: RunSqlBatch;
  const search = async (q: string, page = 1) => {
    const result = await runSearchQuery(run, { q, filters: {}, page });
    return { domains: result.results.map((site) => site.domain), total: result.total };
  };

  beforeAll(async () => {
    stack = await startLocalStack({
      databaseUrl: server && serverDatabase ? await freshServerDatabase(serverDatabase, "search_relevance") : undefined,
      pgliteDataDir: "memory",
      pgliteStartFrom: inject("migratedPglite"),
      sqlPort: 0,
      redisPort: 0,
    });
    await migrate({ databaseUrl: stack.databaseUrl, localHttp: true });
    db = createDatabase({ DATABASE_URL: stack.databaseUrl, DATABASE_LOCAL_HTTP: true });
    run = sqlBatchRunner(db);
    await db.insert(sites).values(
      FIXTURES.map((fixture) => ({
        domain: fixture.domain,
        url: `https://${fixture.domain}/`,
        name: fixture.name,
        description: fixture.description,
        agenticScore: fixture.score,
        tags: fixture.tags ?? [],
        category: "developer" as const,
      })),
    );
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it("finds the word in the name, the tags, the domain and the description, the name first", async () => {
    const { domains, total } = await search("sms");
    expect(total).toBe(5);
    // The name weighs most.
    expect(domains[0]).toBe("relay.example");
    expect(new Set(domains)).toEqual(
      new Set(["relay.example", "notify.example", "sms-gateway.example", "textit.example", "everything.example"]),
    );
    // The same order however the query spells it.
    expect((await search("SMS")).domains).toEqual(domains);
    expect((await search("text messages")).domains).toEqual(domains);
  });

  it("ranks a site that matches more of the words above one that matches fewer, and any word may match", async () => {
    // Every word optional (issue 42): "radar" is in one site, the only one with all three words,
    // which leads; the sites with two of them follow.
    const { domains, total } = await search("weather forecast radar");
    expect(domains[0]).toBe("maps.example");
    expect(total).toBe(5);
    expect(await search("forecast weather")).toEqual(await search("weather forecast"));
    // A word no site has leaves the others to match.
    expect((await search("weather zzzzqqq")).domains).toEqual((await search("weather")).domains);
  });

  it("ranks a site whose short description names the word above one whose long description does", async () => {
    expect(await search("invoices")).toEqual({
      domains: ["billing.example", "ledger.example", "long.example"],
      total: 3,
    });
    expect((await search("invoice")).domains).toEqual(["billing.example", "ledger.example", "long.example"]);
  });

  it("leaves out the words of a request that carry no need, corrects a misspelt word, and takes the last as a prefix", async () => {
    expect((await search("I need something which can send invoices please")).domains).toEqual(
      (await search("send invoices")).domains,
    );
    expect((await search("invoises")).domains).toEqual((await search("invoices")).domains);
    expect((await search("geocodng")).domains).toEqual((await search("geocoding")).domains);
    // The last word as typed so far.
    expect((await search("invoi")).domains).toEqual((await search("invoices")).domains);
  });

  it("still lists a site whose domain the query names exactly first", async () => {
    expect((await search("everything.example")).domains[0]).toBe("everything.example");
  });

  it("finds a domain by its labels' stemmed words as by their spelling", async () => {
    expect((await search("happy")).domains).toEqual(["happy.example"]);
    expect((await search("bakery")).domains).toEqual(["bakeries.example"]);
    expect((await search("bakeries")).domains).toEqual(["bakeries.example"]);
  });

  it("lets variant spellings meet", async () => {
    const email = (await search("email")).domains;
    expect(new Set(email)).toEqual(new Set(["everything.example", "postbox.example", "mailer.example"]));
    expect((await search("e-mail")).domains).toEqual(email);
    expect((await search("E mail")).domains).toEqual(email);
    expect((await search("signup")).domains).toEqual(["accounts.example"]);
    expect((await search("sign up")).domains).toEqual(["accounts.example"]);
    expect((await search("login")).domains).toEqual(["accounts.example"]);
    const geocoding = (await search("geocode")).domains;
    expect(new Set(geocoding)).toEqual(new Set(["finder.example", "places.example"]));
    expect((await search("geocoding")).domains).toEqual(geocoding);
    // The site's own words are kept: "mail" still finds the e-mail sites that write it apart.
    expect(new Set((await search("mail")).domains)).toEqual(new Set(["mailer.example", "everything.example"]));
  });

  it("appends the same canonical words in SQL as the query's rewriting uses", async () => {
    const texts = [
      ...SPELLINGS.flatMap((spelling) => spelling.examples.map((example) => `Try our ${example} service.`)),
      "the mail room",
      "email",
      "sign upgrade",
      "log into",
      "a context message",
      "real timeline",
      "Chat-bots and e-commerce; web hooks in real time.",
    ];
    for (const text of texts) {
      const result = await db.execute(sql`select search_spellings(${text}) as words`);
      const words = String(result.rows[0]?.words).split(" ").filter(Boolean);
      expect(words, text).toEqual(spellingsIn(text));
    }
  });
});
