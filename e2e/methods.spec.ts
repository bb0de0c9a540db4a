import { expect, test } from "./fixtures";

test("the methods page explains all four methods in plain words, with costs and the papers' numbers marked as theirs", async ({
  page,
}) => {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/methods");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("How the methods work");
    const summary = page.getByTestId("methods-summary");
    for (const name of ["RADAR", "Tool-MAD", "ZoFia", "PROClaim"])
      await expect(summary.getByRole("link", { name })).toBeVisible();
    // The cost comes from each protocol's own estimate: RADAR's full debate is 11 calls, PROClaim's expected case 114.
    await expect(page.getByTestId("method-radar").getByTestId("method-cost")).toContainText("About 11 model calls");
    await expect(page.getByTestId("method-proclaim").getByTestId("method-cost")).toContainText(
      "About 114 model calls and 18 searches",
    );
    await expect(page.getByTestId("method-tool-mad").getByTestId("reference-rows")).toContainText(
      "73.0% accuracy on FEVER (200 claims)",
    );
    await expect(page.getByTestId("method-tool-mad")).toContainText("not results of this product");
    const sideways = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(sideways).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `test-results/methods-${width}.png`, fullPage: true });
  }
  // Each paper is cited by title, authors and venue, linked where it has a public address.
  await expect(
    page.getByTestId("method-radar").getByRole("link", { name: "arXiv:2604.19005 [cs.CL]" }),
  ).toHaveAttribute("href", "https://arxiv.org/abs/2604.19005");
  await expect(page.getByTestId("method-tool-mad")).toContainText(
    "Seyeon Jeong, Yeonjun Choi, JongWook Kim, Beakcheol Jang",
  );
  // Reached from the summary: the section it names.
  await page.getByTestId("methods-summary").getByRole("link", { name: "ZoFia" }).click();
  await expect(page).toHaveURL(/#zofia$/);
  await expect(page.getByRole("heading", { name: "ZoFia", level: 2 })).toBeInViewport();
});
