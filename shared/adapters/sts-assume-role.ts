/**
 * STS AssumeRole without @aws-sdk/client-sts: that client (~45 KB with its endpoint rules and
 * schemas) sat in every route's bundle for the one call the tenant wall makes
 * (shared/adapters/tenant-credentials.ts), past the bundles' size budget. The call is STS's query
 * protocol, signed and sent by shared/aws-signed.ts.
 *
 * The protocol: POST https://sts.<region>.amazonaws.com/ (the regional endpoint), a form body
 * `Action=AssumeRole&Version=2011-06-15&…`; the answer is XML,
 * `AssumeRoleResponse/AssumeRoleResult/Credentials/{AccessKeyId,SecretAccessKey,SessionToken,Expiration}`,
 * and an error answers 4xx/5xx with `ErrorResponse/Error/{Code,Message}`.
 */
import { AwsServiceError, SignedService, type SignedAnswer, type SignedServiceOptions } from '../aws-signed.js';
import type { ScopedCredentials } from '../tenant-scope.js';
import { xmlPathText } from '../xml.js';

export interface AssumeRoleInput {
  roleArn: string;
  roleSessionName: string;
  durationSeconds: number;
  /** A session policy: the session is never more than both it and the role's policy allow. */
  policy?: string;
  /** Session tags, key to value. */
  tags?: Record<string, string>;
}

/** STS's error answer, named by its Code as the SDK names it (AccessDenied, Throttling, ...). */
function stsError({ status, text }: SignedAnswer): AwsServiceError {
  let code: string | undefined;
  let message: string | undefined;
  try {
    code = xmlPathText(text, ['ErrorResponse', 'Error', 'Code']);
    message = xmlPathText(text, ['ErrorResponse', 'Error', 'Message']);
  } catch {
    // Not STS's XML (a proxy's page): named by the status.
  }
  const name = code || `STS${status}`;
  return new AwsServiceError(name, message || name, status);
}

export class StsAssumeRole {
  private readonly service: SignedService;

  constructor(options: SignedServiceOptions) {
    this.service = new SignedService('sts', options);
  }

  /** The role's credentials; throws AwsServiceError when STS refuses. */
  async assumeRole(input: AssumeRoleInput): Promise<ScopedCredentials> {
    const form = new URLSearchParams({
      Action: 'AssumeRole',
      Version: '2011-06-15',
      RoleArn: input.roleArn,
      RoleSessionName: input.roleSessionName,
      DurationSeconds: String(input.durationSeconds),
    });
    if (input.policy !== undefined) form.set('Policy', input.policy);
    Object.entries(input.tags ?? {}).forEach(([key, value], i) => {
      form.set(`Tags.member.${i + 1}.Key`, key);
      form.set(`Tags.member.${i + 1}.Value`, value);
    });
    const text = await this.service.post(
      { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
      form.toString(),
      stsError,
    );
    const field = (name: string) =>
      xmlPathText(text, ['AssumeRoleResponse', 'AssumeRoleResult', 'Credentials', name]) || undefined;
    const accessKeyId = field('AccessKeyId');
    const secretAccessKey = field('SecretAccessKey');
    const sessionToken = field('SessionToken');
    if (!accessKeyId || !secretAccessKey || !sessionToken) throw new Error('AssumeRole answered no credentials');
    const expiration = field('Expiration');
    return { accessKeyId, secretAccessKey, sessionToken, ...(expiration ? { expiration: new Date(expiration) } : {}) };
  }
}
