import { Ok, route } from '../../lib/openapi';
import * as s from './schemas';

const tags = ['Asset pools'];

export const listPools = route({
  method: 'get',
  path: '/asset-pools',
  operationId: 'listAssetPools',
  tags,
  summary: 'Asset pools of the operator (optionally of one location)',
  query: s.ListQuery,
  ok: s.PoolList,
  description: `Newest first, \`limit\`/\`offset\`, \`total\`; \`locationId\` keeps the pools of one location. Each pool lists its \`assetIds\` and the assets still existing (name, item, status). Gateway scope: \`read:inventory\`.`,
});
export const createPool = route({
  method: 'post',
  path: '/asset-pools',
  operationId: 'createAssetPool',
  tags,
  summary: 'Group assets of one location into a pool sold as one',
  body: s.CreatePool,
  ok: s.Pool,
  status: 201,
  errors: [403, 404],
  description: `Every asset must be an asset of one of your items at that location (400 naming the others). Needs the \`inventory\` permission. Gateway scope: \`write:inventory\`.`,
});
export const getPool = route({
  method: 'get',
  path: '/asset-pools/{poolId}',
  operationId: 'getAssetPool',
  tags,
  summary: 'One asset pool with its assets',
  params: s.PoolIdParam,
  ok: s.Pool,
  errors: [404],
  description: `With \`assetIds\` and the assets still existing (name, item, item name, status). Another operator's pool answers 404. Gateway scope: \`read:inventory\`.`,
});
export const updatePool = route({
  method: 'patch',
  path: '/asset-pools/{poolId}',
  operationId: 'updateAssetPool',
  tags,
  summary: 'Rename a pool or change its assets',
  params: s.PoolIdParam,
  body: s.UpdatePool,
  ok: s.Pool,
  errors: [403, 404],
  description: `Only the fields given change; \`assetIds\` replaces the whole list (duplicates dropped) and every asset must be of the pool's location (400 naming the others). The location does not change. 400 \`no_changes\` for an empty body. Needs the \`inventory\` permission. Gateway scope: \`write:inventory\`.`,
});
export const deletePool = route({
  method: 'delete',
  path: '/asset-pools/{poolId}',
  operationId: 'deleteAssetPool',
  tags,
  summary: 'Delete an asset pool (the assets stay)',
  params: s.PoolIdParam,
  ok: Ok,
  errors: [403, 404],
  description: `Only the grouping goes; the assets and their items are untouched. Another operator's pool answers 404. Needs the \`inventory\` permission. Answers \`success\` and the \`poolId\`. Gateway scope: \`write:inventory\`.`,
});
