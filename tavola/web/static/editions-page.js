// The editions pages (being written).
import { $ } from "/static/tavola/common.js";

export const page = $;
