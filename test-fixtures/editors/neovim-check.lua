-- Drives the built language server through Neovim's own LSP client (0.7 API) and checks
-- what a Neovim user sees: diagnostics at the right place, and a hover.
-- Usage: nvim --headless --clean -n -c "luafile neovim-check.lua" FILE
-- Environment: RENDER_LENS_SERVER (path of dist/server-launcher.js, what render-lens-server runs), RENDER_LENS_ROOT (workspace).
local function fail(message)
  io.stderr:write('neovim-check: ' .. message .. '\n')
  vim.cmd('cquit 1')
end

local ok, err = pcall(function()
  local server = os.getenv('RENDER_LENS_SERVER')
  local root = os.getenv('RENDER_LENS_ROOT')
  local bufnr = vim.api.nvim_get_current_buf()
  local client_id = vim.lsp.start_client({ name = 'render-lens', cmd = { 'node', server, '--stdio' }, root_dir = root })
  if not client_id then return fail('the server did not start') end
  vim.lsp.buf_attach_client(bufnr, client_id)

  local found = vim.wait(15000, function() return #vim.diagnostic.get(bufnr) > 0 end, 50)
  if not found then return fail('no diagnostics within 15 s') end
  local lines = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(lines, string.format('diagnostic %d:%d %s %s', d.lnum + 1, d.col + 1, d.code or d.user_data and d.user_data.lsp and d.user_data.lsp.code or '?', d.message:sub(1, 40)))
  end
  table.sort(lines)

  -- Hover on the first ${ in the buffer.
  local row, col
  for i, text in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    local at = text:find('${', 1, true)
    if at then row, col = i - 1, at + 1 break end
  end
  local responses = vim.lsp.buf_request_sync(bufnr, 'textDocument/hover', { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = { line = row, character = col } }, 10000)
  local hover = ''
  for _, response in pairs(responses or {}) do
    if response.result and response.result.contents then hover = response.result.contents.value or '' end
  end
  table.insert(lines, 'hover ' .. (hover:match('^[^\n]*') or ''))
  io.stdout:write(table.concat(lines, '\n') .. '\n')
  vim.lsp.stop_client(client_id)
  vim.cmd('qall!')
end)
if not ok then fail(tostring(err)) end
