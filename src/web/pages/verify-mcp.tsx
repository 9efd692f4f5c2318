/**
 * The MCP verification page (`/verify-mcp`): a form that runs the live Streamable HTTP handshake
 * with one endpoint and says, in plain words, whether it is a working MCP server.
 */
import type { McpVerification } from "../../domain/checks/verify-mcp.ts";
import { buildSiteLinks } from "../../domain/descriptor/site-documents.ts";
import { Notice, ProgressScript, UrlForm } from "../components.tsx";
import { Layout } from "../layout.tsx";
import { renderPage } from "../render-page.ts";

export interface VerifyMcpPageProps {
  origin: string;
  url?: string;
  error?: string;
  verification?: McpVerification;
}

export function VerifyMcpPage({ origin, url, error, verification }: VerifyMcpPageProps) {
  const links = buildSiteLinks(origin);
  return (
    <Layout
      origin={origin}
      url={links.verifyMcp}
      title={verification ? `MCP verification of ${verification.endpoint}` : "Verify an MCP server"}
      description="Verify an MCP server live: initialize, initialized and tools/list over the Streamable HTTP transport."
    >
      <h1>Verify an MCP server</h1>
      {verification ? (
        <Notice
          tone={verification.verified ? "success" : "warning"}
          title={verification.verified ? "A working MCP server." : "Not a working MCP server."}
        >
          <dl class="facts">
            <div>
              <dt>Endpoint</dt>
              <dd>
                <code class="url">{verification.endpoint}</code>
              </dd>
            </div>
            <div>
              <dt>Found</dt>
              <dd>{verification.note}</dd>
            </div>
          </dl>
        </Notice>
      ) : null}
      <p class="lead">
        A live handshake over the Streamable HTTP transport: initialize, then notifications/initialized, then
        tools/list. Nothing is stored.
      </p>
      <UrlForm
        id="verify"
        action={links.verifyMcp}
        method="get"
        label="MCP endpoint"
        hint="The endpoint's URL, such as https://example.com/mcp; https:// is assumed, and a bare host means its /mcp."
        button="Verify"
        value={url}
        placeholder="https://example.com/mcp"
        error={error}
        progress="Talking to the server; this takes up to 15 seconds."
      />
      <p class="muted">
        Free: 20 verifications per hour. For all seven signals of a site, <a href={links.check}>check it</a>.
      </p>
      <ProgressScript />
    </Layout>
  );
}

/** The MCP verification page: the form, a refusal, or the verdict. */
export function renderVerifyMcpPage(props: VerifyMcpPageProps): Promise<string> {
  return renderPage(<VerifyMcpPage {...props} />);
}
