import { z } from "zod";
import "zod-openapi";
import { DEFAULT_METHOD, methodDefinitions } from "@/lib/debate/methods";
import { getProtocol, PROTOCOL_NAMES } from "@/lib/debate/protocols";
import { endpoint } from "../endpoint";

export const methodListSchema = z
  .object({
    methods: z.array(
      z.object({
        name: z.string().meta({ description: "What to send as `method`.", example: DEFAULT_METHOD }),
        title: z.string(),
        description: z.string(),
        default: z.boolean().meta({ description: "The method a request that names none runs." }),
        input: z.string().meta({ description: "`claim` (one sentence) or `article` (a news article's body)." }),
        findsOwnEvidence: z.boolean().meta({
          description: "Searches while it runs: a corpus is optional or read by its tools, pasted evidence is refused.",
        }),
        corpusOptional: z.boolean(),
        presets: z
          .array(z.object({ name: z.string(), title: z.string() }))
          .meta({ description: "What to send as `preset`." }),
        labels: z
          .record(z.string(), z.string().nullable())
          .meta({ description: "Each of its own labels on the product's scale (null: no place on it)." }),
      }),
    ),
  })
  .meta({ id: "MethodList" });

export const listMethods = endpoint({
  id: "listMethods",
  method: "GET",
  path: "/api/v1/methods",
  tag: "Debates",
  summary: "List the methods and their presets",
  description: "Every method this server runs, with the names to send as `method` and `preset`.",
  responses: { 200: { description: "The methods, the default first.", schema: methodListSchema } },
  async handle() {
    return { status: 200, json: methodList() };
  },
});

/** Every method this server runs, the default first: the API's `GET /api/v1/methods` and the CLI's `methods`. */
export function methodList(): z.infer<typeof methodListSchema> {
  const defs = methodDefinitions().filter((d) => PROTOCOL_NAMES.includes(d.name));
  const ordered = [...defs.filter((d) => d.name === DEFAULT_METHOD), ...defs.filter((d) => d.name !== DEFAULT_METHOD)];
  return {
    methods: ordered.map((d) => {
      const titles = new Map((d.formPresets ?? []).map((p) => [p.name, p.title]));
      return {
        name: d.name,
        title: d.title,
        description: d.description,
        default: d.name === DEFAULT_METHOD,
        input: d.input,
        findsOwnEvidence: d.bringsOwnEvidence,
        corpusOptional: !!d.corpusOptional,
        presets: Object.keys(getProtocol(d.name).presets).map((name) => ({
          name,
          title: titles.get(name) ?? d.presetTitles?.[name] ?? name,
        })),
        labels: Object.fromEntries(Object.keys(d.labels.toProduct).map((l) => [l, d.labels.toProduct[l] ?? null])),
      };
    }),
  };
}
