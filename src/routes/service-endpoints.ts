/** Every endpoint of the service (the descriptor's `endpoints`), as `npm run describe` generated it. */
import endpoints from "../generated/service-endpoints.json";

export const SERVICE_ENDPOINTS: Record<string, string> = endpoints;
