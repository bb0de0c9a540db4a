import { parseHTML } from "linkedom";
import { ParseLimitError } from "./limits";

/**
 * Refuses HTML whose elements nest deeper than `max` before a recursive reader (html-to-text,
 * Readability) exhausts the stack on it. linkedom parses without recursion, and the walk below
 * keeps its own stack, stopping as soon as it passes `max`. The parsing child has the same check.
 */
export function assertHtmlDepth(html: string, name: string, max: number): void {
  const { document } = parseHTML(html);
  const stack: Array<[Element | Document, number]> = [[document as unknown as Document, 0]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (depth > max)
      throw new ParseLimitError(
        "depth",
        `${name} nests its elements more than ${max.toLocaleString("en")} deep, far past any real document; it was not read. Save it again from the program that made it, or paste its text.`,
      );
    for (const child of Array.from(node.children ?? [])) stack.push([child, depth + 1]);
  }
}
