import { ApiError, errorResponse, type Endpoint } from "./endpoint";
import { requestIdOf } from "./http";
import { serve } from "./serve";

type Handler = (request: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

/**
 * Every HTTP method of one /api/v1 address: the endpoints declared for it, and for every other
 * method a 405 in the API's error shape with `Allow` (Next would answer an empty 405 for a method
 * a route file does not export, so each route file exports them all through this):
 *
 *   export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeOf(listDebates, startDebate);
 */
export function routeOf(...endpoints: Endpoint[]) {
  const by = new Map<string, Handler>(endpoints.map((e) => [e.method, serve(e)]));
  const get = by.get("GET");
  const allow = [...by.keys(), ...(get ? ["HEAD"] : []), "OPTIONS"].join(", ");
  const refuse: Handler = async (request) => {
    const res = errorResponse(
      new ApiError(
        405,
        "method_not_allowed",
        `${request.method} is not answered at this address; it answers ${allow} (/api/v1/openapi.json lists each).`,
        undefined,
        { allow },
      ),
    );
    res.headers.set("x-request-id", requestIdOf(request));
    return res;
  };
  return {
    GET: get ?? refuse,
    // Next strips the body of a HEAD answer; a GET's headers are what HEAD is for.
    HEAD: get ?? refuse,
    POST: by.get("POST") ?? refuse,
    PUT: refuse,
    PATCH: refuse,
    DELETE: by.get("DELETE") ?? refuse,
    // Next would list every exported method, the refused ones too; this names the ones answered.
    OPTIONS: async (request: Request) =>
      new Response(null, { status: 204, headers: { allow, "x-request-id": requestIdOf(request) } }),
  };
}
