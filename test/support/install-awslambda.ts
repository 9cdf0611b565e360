/**
 * vitest setupFiles: the Lambda runtime's global `awslambda` (stand-in), before any test file
 * imports a handler, so a test can import a streaming handler module directly, as the runtime would
 * load it.
 */
import { installAwslambdaShim } from '../../shared/local/awslambda-shim.js';

installAwslambdaShim();
