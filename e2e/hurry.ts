/*
 * "SLOW" claims stream 8x slower (e2e/fake-openai.mjs) so a test can watch, reload or stop a debate
 * while it runs. Once a test has checked what it needed mid-stream, waiting for the verdict at that
 * speed only costs time: hurry(marker) asks the scripted model server to answer every prompt that
 * contains the marker (words of the test's claim) at the normal speed from then on. The rest of the
 * test still asserts the same verdict and turns. A spec that hurries calls resetHurry() after each
 * test (test.afterEach), so a later test with the same claim streams slowly again.
 */
const FAKE = `http://127.0.0.1:${process.env.FAKE_OPENAI_PORT ?? 3291}/hurry`;

async function post(body: object) {
  const res = await fetch(FAKE, { method: "POST", body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`the scripted model server refused ${JSON.stringify(body)}: ${await res.text()}`);
}

export const hurry = (marker: string) => post({ marker });
export const resetHurry = () => post({ reset: true });
