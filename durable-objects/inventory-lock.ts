import { DurableObject } from 'cloudflare:workers';
export class InventoryLock extends DurableObject { async ping() { return 'pong'; } }
