/**
 * The MCP keys of a settings file, as the code reads them (the schema is in
 * ./settings-schema.ts), and how files layer.
 */
import type * as z from "zod";
import { type MergeRule, mergeRecords } from "../config/merge.js";
import type {
  mcpApprovalSettingsSchema,
  mcpServersSettingsSchema,
  mcpSettingsSchema,
} from "./settings-schema.js";

export type McpSettings = z.infer<ReturnType<typeof mcpSettingsSchema>>;
type McpServersSettings = z.infer<ReturnType<typeof mcpServersSettingsSchema>>;
type Approval = ReturnType<typeof mcpApprovalSettingsSchema>;

/** Every MCP key of a settings file. */
export interface McpSettingsFragment {
  mcpServers?: McpServersSettings;
  mcp?: McpSettings;
  enableAllProjectMcpServers?: z.infer<Approval["enableAllProjectMcpServers"]>;
  enabledMcpjsonServers?: z.infer<Approval["enabledMcpjsonServers"]>;
  disabledMcpjsonServers?: z.infer<Approval["disabledMcpjsonServers"]>;
}

/** `mcp`: a nearer file's value for each key wins. */
export const mergeMcpSettings: MergeRule<McpSettings> = mergeRecords;
