// Public vocabulary of inventory: the item model (zod) that every module reads items with.
export { Addon, InventoryData, Season, WEEKDAY_NAMES, isCalendarDate, type InventoryDataInput, type InventoryModel } from './model';
