/**
 * A local STS for the tenant wall (shared/adapters/sts-assume-role.ts): a node:http server that
 * answers AssumeRole of one role as STS answers (the XML of its API reference), or refuses it with
 * STS's error XML. Read by test/unit/tenant-wall.test.ts and bin/bench-tenant-wall.ts.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

/** The server (not listening yet), what it was sent, and its state: its clock, refusals to answer, credentials issued. */
export function localSts() {
  const seen: { method: string; headers: IncomingHttpHeaders; form: URLSearchParams }[] = [];
  const state = { now: 1_000_000, refuse: [] as { status: number; code: string; message: string }[], issued: 0 };
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const form = new URLSearchParams(raw);
      seen.push({ method: req.method!, headers: req.headers, form });
      res.setHeader('content-type', 'text/xml');
      const refusal = state.refuse.shift();
      if (refusal) {
        res.writeHead(refusal.status);
        return res.end(
          `<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">\n  <Error>\n    <Type>Sender</Type>\n` +
            `    <Code>${refusal.code}</Code>\n    <Message>${refusal.message}</Message>\n  </Error>\n` +
            `  <RequestId>4b2f5a0e-7d3c-11e0-9b0a-0123456789ab</RequestId>\n</ErrorResponse>\n`,
        );
      }
      const n = ++state.issued;
      const session = form.get('RoleSessionName');
      res.writeHead(200);
      res.end(
        `<AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
  <AssumeRoleResult>
    <AssumedRoleUser>
      <Arn>arn:aws:sts::111122223333:assumed-role/td/${session}</Arn>
      <AssumedRoleId>AROA3XFRBF535PLBIFPI4:${session}</AssumedRoleId>
    </AssumedRoleUser>
    <Credentials>
      <AccessKeyId>ASIAIOSFODNN7EXAMPL${n}</AccessKeyId>
      <SecretAccessKey>wJalrXUtnFEMI/K7MDENG/bPxRfiCY+EXAMPLEKEY</SecretAccessKey>
      <SessionToken>
       FwoGZXIvYXdzEN//////////wEaDOjEXAMPLE${n}+tenant&amp;token==
      </SessionToken>
      <Expiration>${new Date(state.now + 3_600_000).toISOString()}</Expiration>
    </Credentials>
    <PackedPolicySize>6</PackedPolicySize>
  </AssumeRoleResult>
  <ResponseMetadata>
    <RequestId>c6104cbe-af31-11e0-8154-cbc7ccf896c7</RequestId>
  </ResponseMetadata>
</AssumeRoleResponse>
`,
      );
    });
  });
  return { server, seen, state };
}
