import IORedis from "ioredis";
import pg from "pg";

/** Creates (or recreates) a database of its own next to the one `url` names, for one test file. */
export async function freshServerDatabase(url: string, purpose: string): Promise<string> {
  const name = `${purpose}_test_${process.pid}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${name}`);
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const fresh = new URL(url);
  fresh.pathname = `/${name}`;
  return fresh.toString();
}

/**
 * The logical Redis database after the one `url` names (modulo 16), emptied, for one test file's
 * service: a service of its own in front of the same Redis server as the integration stack would
 * otherwise share its keys (its cached /stats/adoption answered the integration Worker's, with
 * another database's rows, when the two ran side by side on 2026-12-02).
 */
export async function freshServerRedis(url: string): Promise<string> {
  const fresh = new URL(url);
  const database = Number(fresh.pathname.slice(1) || "0");
  fresh.pathname = `/${(database + 1) % 16}`;
  const client = new IORedis(fresh.toString(), { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await client.connect();
    await client.flushdb();
  } finally {
    client.disconnect();
  }
  return fresh.toString();
}
