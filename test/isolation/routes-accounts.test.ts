/** The isolation suite for the routes of the group `accounts` (test/isolation/groups.ts, suite.ts). */
import { isolationSuite } from './suite.js';

isolationSuite('accounts');
