import { useDatabase } from "../helpers/next-request";
import { EventSource } from "eventsource";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DbHandle } from "@/db/client";
import { createUser } from "@/db/queries/users";
import { createApiToken } from "@/lib/auth/api-tokens";
import { createSession, SESSION_COOKIE } from "@/lib/auth/sessions";
import { GET as pageStream } from "@/app/api/debates/[id]/events/route";
import { callApi } from "../helpers/api";
import { seedDebates } from "../helpers/seed-debates";
import { backend, freshDatabase } from "./test-db";

/*
 * A standard EventSource client (the `eventsource` package) on a debate that has finished: it
 * gets the snapshot and the documented `end` event, and stops. It is never told to close by the
 * test's own code: the server's 204 on its reconnect is what stops it, as the SSE standard says.
 * Requests go to the route handlers in this process through the client's `fetch` option.
 */

let h: DbHandle;
let debateId = "";
let token = "";
let cookie = "";

beforeAll(async () => {
  h = await freshDatabase();
  useDatabase(h);
  [debateId] = (await seedDebates(h.db, { count: 1 })) as [string];
  const u = await createUser(h.db, { email: "reader@stream.test", passwordHash: null, roles: ["fact-checker"] });
  token = (
    await createApiToken(h.db, { id: u.id, email: u.email, name: null, roles: ["fact-checker"] }, { name: "sse" })
  ).token;
  cookie = `${SESSION_COOKIE}=${(await createSession(h.db, u.id)).token}`;
});
afterAll(async () => {
  await h?.close();
});

/** Follows a stream with a naive client (no handler closes it); returns each answer's status and the events seen. */
async function follow(open: (headers: Headers) => Promise<Response>) {
  const statuses: number[] = [];
  const events: string[] = [];
  const es = new EventSource("http://127.0.0.1:3000/stream", {
    fetch: async (_url, init) => {
      // Bounded: a client that never stops fails the test here instead of looping.
      if (statuses.length >= 5) throw new Error("the client kept reconnecting");
      const res = await open(new Headers(init?.headers as HeadersInit));
      statuses.push(res.status);
      return res;
    },
  });
  for (const name of ["snapshot", "end", "debate"]) es.addEventListener(name, () => events.push(name));
  await vi.waitFor(() => expect(es.readyState).toBe(EventSource.CLOSED), { timeout: 10_000, interval: 50 });
  es.close();
  return { statuses, events };
}

describe(`a finished debate's event stream stops a standard client (${backend})`, () => {
  it("/api/v1/debates/{id}/events: one stream with snapshot and end, then 204 and the client stops", async () => {
    const seen = await follow((headers) =>
      callApi({
        method: "GET",
        path: "/api/v1/debates/{id}/events",
        params: { id: debateId },
        token,
        headers: Object.fromEntries(headers),
      }),
    );
    expect(seen.statuses).toEqual([200, 204]);
    expect(seen.events).toEqual(["snapshot", "end"]);
  });

  it("the debate page's own stream ends the same way", async () => {
    const seen = await follow((headers) => {
      headers.set("cookie", cookie);
      return pageStream(new Request(`http://127.0.0.1:3000/api/debates/${debateId}/events`, { headers }), {
        params: Promise.resolve({ id: debateId }),
      });
    });
    expect(seen.statuses).toEqual([200, 204]);
    expect(seen.events).toEqual(["snapshot", "end"]);
  });
});
