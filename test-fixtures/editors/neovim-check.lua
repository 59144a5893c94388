-- Checks what a Neovim user sees once README's snippet has started the language server for
-- the file: the client's workspace root, diagnostics at the right place, and a hover.
-- Usage: nvim --headless --clean -n --cmd "luafile SNIPPET" -c "luafile neovim-check.lua" FILE
-- (the snippet must be loaded before FILE, so that its FileType autocommand starts the client).
local function fail(message)
  io.stderr:write('neovim-check: ' .. message .. '\n')
  vim.cmd('cquit 1')
end

local ok, err = pcall(function()
  local bufnr = vim.api.nvim_get_current_buf()
  -- A client is listed once the server has answered initialize. vim.lsp.get_clients came in
  -- 0.10; 0.7 has buf_get_clients.
  local client
  vim.wait(15000, function()
    for _, candidate in pairs(vim.lsp.get_clients and vim.lsp.get_clients({ bufnr = bufnr }) or vim.lsp.buf_get_clients(bufnr)) do
      if candidate.name == 'render-lens' then client = candidate end
    end
    return client ~= nil
  end, 50)
  if not client then return fail('the snippet attached no render-lens client to ' .. vim.api.nvim_buf_get_name(bufnr) .. ' (filetype ' .. vim.bo[bufnr].filetype .. ') within 15 s') end
  local lines = { 'root ' .. (client.config.root_dir or '') }

  local found = vim.wait(15000, function() return #vim.diagnostic.get(bufnr) > 0 end, 50)
  if not found then return fail('no diagnostics within 15 s') end
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
  vim.lsp.stop_client(client.id)
  vim.cmd('qall!')
end)
if not ok then fail(tostring(err)) end
