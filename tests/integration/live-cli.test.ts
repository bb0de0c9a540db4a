import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli";
import { backend, freshCliEnv } from "./test-db";

/*
 * The live desk's closing commands as a user runs them: a replayed transcript, `live close`, and
 * `live export` writing the archive as CSV with the transcript's lines and their cards. (Lines
 * refused after the close: tests/integration/live-archive.test.ts, through the same service.) On
 * PostgreSQL only: each command is a process of its own, and opening PGlite in each costs about
 * 20 s under load, for the same code.
 */

describe.skipIf(backend !== "postgres")("live close and export (PostgreSQL)", () => {
  it("closes a session and exports its archive", async () => {
    const env = await freshCliEnv();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cp-live-cli-"));
    const file = path.join(dir, "debate.txt");
    fs.writeFileSync(
      file,
      "MODERATOR: Good evening.\nSMITH: Unemployment in Freedonia fell to 3 percent last year, the lowest since 1970.\n",
    );
    const replay = await runCli(["live", "replay", file, "--speed", "max", "--threshold", "0.5", "--json"], env);
    expect(replay.code, replay.stderr).toBe(0);
    const id = (JSON.parse(replay.stdout) as { session: string }).session;

    const closed = await runCli(["live", "close", id, "--json"], env);
    expect(closed.code, closed.stderr).toBe(0);
    expect(JSON.parse(closed.stdout)).toMatchObject({ id, status: "closed", lines: 2 });

    const csv = await runCli(["live", "export", id, "--format", "csv"], env);
    expect(csv.code, csv.stderr).toBe(0);
    const rows = csv.stdout.trimEnd().split("\r\n");
    expect(rows[0]).toMatch(/^kind,seq,line_id,time_code,speaker,text,/);
    expect(rows.filter((r) => r.startsWith("line,"))).toHaveLength(2);
    expect(rows.some((r) => r.startsWith("card,2,L2,") && r.includes("Unemployment"))).toBe(true);

    const bad = await runCli(["live", "export", id, "--format", "xml"], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/--format takes json or csv/);
  }, 240_000);
});
