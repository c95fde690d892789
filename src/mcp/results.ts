import { isDeepStrictEqual } from "node:util";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { type ToolOutput, toolErrorText } from "../core/tool.js";

type Block = CallToolResult["content"][number];

/**
 * An MCP tool result as the model reads it. hx's conversation is text, so text blocks are
 * passed as they are; structured content is added as JSON when no text block already holds
 * it; images, audio and binary resources become one-line notes (what they are and how big);
 * embedded text resources are included with their URI; resource links name the URI to read
 * with `read_mcp_resource`. `isError` results stay errors.
 */
export function toToolOutput(result: CallToolResult): ToolOutput {
  const blocks = Array.isArray(result.content) ? result.content : [];
  const images = imagesOf(blocks);
  const parts = blocks
    .map((block) => renderBlock(block, images.some((image) => image.block === block) ? ATTACHED : undefined))
    .filter((part) => part !== "");
  if (result.structuredContent !== undefined && !textHolds(blocks, result.structuredContent)) {
    parts.push(`Structured content:\n${JSON.stringify(result.structuredContent, null, 2)}`);
  }
  let content = parts.join("\n\n");
  if (result.isError === true) {
    if (content === "") content = "the tool reported an error without a message";
    return { content: content.startsWith("Error") ? content : toolErrorText(content), isError: true };
  }
  return {
    content: content === "" ? "(the tool returned no content)" : content,
    ...(images.length ? { images: images.map(({ mimeType, data }) => ({ mimeType, data })) } : {}),
  };
}

/** Images a provider may send (at most MAX_IMAGES, each under MAX_IMAGE_BYTES); the rest stay notes. */
const MAX_IMAGES = 4;
const MAX_IMAGE_BYTES = 3_750_000; // Anthropic's limit is 5 MB of base64
const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

const ATTACHED = "attached for models that take images";

function imagesOf(blocks: readonly Block[]): Array<{ mimeType: string; data: string; block: Block }> {
  return blocks
    .filter((block): block is Extract<Block, { type: "image" }> => block.type === "image")
    .filter((block) => IMAGE_TYPES.has(block.mimeType) && base64Bytes(block.data) <= MAX_IMAGE_BYTES)
    .slice(0, MAX_IMAGES)
    .map((block) => ({ mimeType: block.mimeType, data: block.data, block }));
}

/** One content block as text: text as it is, other content as a one-line note (see toToolOutput). */
export function renderBlock(
  block: Block,
  imageNote = "hx passes text only, so the model does not see it",
): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
      return `[image: ${block.mimeType}, ${formatBytes(base64Bytes(block.data))}; ${imageNote}]`;
    case "audio":
      return `[audio: ${block.mimeType}, ${formatBytes(base64Bytes(block.data))}; not shown to the model]`;
    case "resource": {
      const resource = block.resource;
      const mime = resource.mimeType ? ` (${resource.mimeType})` : "";
      if ("text" in resource && typeof resource.text === "string")
        return `[resource ${resource.uri}${mime}]\n${resource.text}`;
      const bytes = "blob" in resource && typeof resource.blob === "string" ? base64Bytes(resource.blob) : 0;
      return `[resource ${resource.uri}${mime}: ${formatBytes(bytes)} of binary data, not shown]`;
    }
    case "resource_link": {
      const mime = block.mimeType ? `, ${block.mimeType}` : "";
      const about = block.description ? `: ${block.description}` : "";
      return `[resource link: ${block.name} <${block.uri}>${mime}${about}; read it with read_mcp_resource]`;
    }
    default:
      return `[${(block as { type?: string }).type ?? "unknown"} content, not shown]`;
  }
}

/** True when a text block is the structured content serialised (servers should send both). */
function textHolds(blocks: readonly Block[], structured: unknown): boolean {
  return blocks.some((block) => {
    if (block.type !== "text") return false;
    try {
      return isDeepStrictEqual(JSON.parse(block.text), structured);
    } catch {
      return false;
    }
  });
}

function base64Bytes(data: string): number {
  const clean = data.replace(/=+$/, "");
  return Math.floor((clean.length * 3) / 4);
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
