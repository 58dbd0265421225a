/** `POST /swap/v1/swap-instructions`: Jupiter's JSON in and out, Jupiter's error bodies and statuses (by the server's error table). */
import { SWAP_API_ERRORS } from "../../server/error-mapping.js";
import type { RestRoute } from "../../server/rest.js";
import { swapRequestFromJupiterJson } from "./jupiter-request-json.js";
import { swapResponseToJupiterJson } from "./jupiter-response-json.js";
import { REST_REQUESTS } from "../rest-requests/rest-request-shapes.js";
import type { SwapInstructionsOperation } from "./swap-instructions.js";
import { ref } from "../../server/json-schema.js";
import { SWAP_V1_SCHEMAS } from "./rest-schemas.js";

export const SWAP_INSTRUCTIONS_PATH = "/swap/v1/swap-instructions";

export function swapInstructionsRestRoute(swapInstructions: SwapInstructionsOperation): RestRoute {
  return {
    method: "POST",
    path: SWAP_INSTRUCTIONS_PATH,
    request: REST_REQUESTS.swapInstructions,
    errors: SWAP_API_ERRORS,
    summary: "a quote's swap as instructions to assemble",
    answer: { description: "the instructions", schema: ref("SwapInstructionsResponse"), components: SWAP_V1_SCHEMAS },
    async handler(req) {
      const outcome = await swapInstructions(swapRequestFromJupiterJson(req.body));
      return { status: 200, body: swapResponseToJupiterJson(outcome) };
    },
  };
}
