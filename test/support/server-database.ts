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
