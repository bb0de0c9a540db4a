import { describe, expect, it } from "vitest";
import { emitWebhookEvent, WebhookPayloadError } from "@/lib/webhooks/emit";
import { durationWords, retryDelayMs, retrySchedule } from "@/lib/webhooks/schedule";
import { excerpt } from "@/lib/webhooks/deliver";

describe("webhook retries", () => {
  it("wait four times longer each time: the schedule the README and the admin page state", () => {
    expect(retrySchedule(30_000, 6).map(durationWords)).toEqual(["30 s", "2 min", "8 min", "32 min", "2 h 8 min"]);
    expect(retrySchedule(30_000, 1)).toEqual([]);
    // The spread is at most a tenth, never shorter than the plain wait.
    expect(retryDelayMs(2, 30_000, () => 0)).toBe(120_000);
    expect(retryDelayMs(2, 30_000, () => 0.999)).toBeLessThanOrEqual(132_000);
  });
});

describe("the emitter's contract", () => {
  it("refuses data of the wrong shape where it is called, naming the field", async () => {
    const bad = { factCheck: { id: "not-a-uuid", slug: "x" } } as never;
    const call = emitWebhookEvent({ db: {} as never }, "fact_check.published", bad);
    await expect(call).rejects.toThrow(WebhookPayloadError);
    await expect(call).rejects.toThrow(/fact_check\.published.*factCheck\.id/);
  });
});

describe("a receiver's answer in the log", () => {
  it("keeps printable text only, cut short", () => {
    expect(excerpt(Buffer.from("ok\u0000\u001b[31m red"))).toBe("ok[31m red");
    expect(excerpt(Buffer.from("   "))).toBeNull();
    expect(excerpt(Buffer.from("x".repeat(1000)))).toHaveLength(301);
  });
});
