-- Drives `olm-catalog lsp` from Neovim, as a user's editor would: the snippet of
-- docs/editors.md (OLM_LSP_SNIPPET, run first) starts the server on the working directory, the
-- catalog, when a file of it is opened; this script opens the two files, waits for the findings,
-- asks hover, definition, references and completion, applies the quick fix of the z-stream gap
-- and a rename, writes the files, and records what it saw as JSON in OLM_LSP_OUT
-- (tests/lsp_neovim.rs checks it). Neovim 0.7's API.
local snippet, root, out = os.getenv('OLM_LSP_SNIPPET'), vim.fn.getcwd(), os.getenv('OLM_LSP_OUT')
local seen = { errors = {} }

local function codes(buf)
  local list = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(list, d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or '?')
  end
  table.sort(list)
  return list
end

local function has(list, item)
  for _, x in ipairs(list) do
    if x == item then
      return true
    end
  end
  return false
end

local function drive()
  dofile(snippet)
  vim.cmd('edit ' .. root .. '/foo/bundles.yaml')
  local bundles = vim.api.nvim_get_current_buf()
  vim.cmd('edit ' .. root .. '/foo/package.yaml')
  local pkg = vim.api.nvim_get_current_buf()
  local id = vim.g.olm_catalog_client
  assert(id, 'the snippet started the server')
  local client = vim.lsp.get_client_by_id(id)
  assert(vim.lsp.buf_is_attached(bundles, id) and vim.lsp.buf_is_attached(pkg, id), 'both files attached')
  local function at(buf, line, character)
    return { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = line, character = character } }
  end
  local function request(method, params, buf)
    local r, err = client.request_sync(method, params, 10000, buf)
    assert(r and not r.err, method .. ': ' .. vim.inspect(err or (r and r.err)))
    return r.result
  end

  vim.wait(10000, function() return #vim.diagnostic.get(pkg) > 0 end, 20)
  seen.diagnostics = codes(pkg)

  -- Hover on the entry `- name: foo.v1.0.1` (line 9).
  seen.hover = request('textDocument/hover', at(pkg, 9, 10), pkg).contents.value
  -- `replaces: foo.v1.0.0` (line 10) → the bundle blob in bundles.yaml.
  local def = request('textDocument/definition', at(pkg, 10, 14), pkg)[1]
  seen.definition = { file = vim.fn.fnamemodify(vim.uri_to_fname(def.uri), ':t'), line = def.range.start.line }
  local refs_params = at(bundles, 13, 8)
  refs_params.context = { includeDeclaration = true }
  seen.references = #request('textDocument/references', refs_params, bundles)
  local items = request('textDocument/completion', at(pkg, 10, 12), pkg)
  items = items.items or items
  seen.completion = {}
  for _, item in ipairs(items) do
    table.insert(seen.completion, item.label)
  end
  table.sort(seen.completion)

  -- The quick fix of the z-stream gap, applied.
  local gap
  for _, d in ipairs(vim.diagnostic.get(pkg)) do
    if d.code == 'z-stream-gap' then
      gap = d
    end
  end
  local range = { start = { line = gap.lnum, character = gap.col }, ['end'] = { line = gap.end_lnum, character = gap.end_col } }
  local lsp_diag = { range = range, message = gap.message, code = gap.code, severity = gap.severity, source = gap.source }
  local actions = request('textDocument/codeAction', {
    textDocument = { uri = vim.uri_from_bufnr(pkg) },
    range = range,
    context = { diagnostics = { lsp_diag } },
  }, pkg)
  seen.actions = {}
  for _, a in ipairs(actions) do
    table.insert(seen.actions, a.title)
  end
  vim.lsp.util.apply_workspace_edit(actions[1].edit, client.offset_encoding)
  seen.fixed = vim.wait(10000, function() return not has(codes(pkg), 'z-stream-gap') end, 20)

  -- Rename the bundle foo.v1.0.1 across both files.
  local rename = at(pkg, 9, 10)
  rename.newName = 'foo.v1.0.1-renamed'
  vim.lsp.util.apply_workspace_edit(request('textDocument/rename', rename, pkg), client.offset_encoding)
  vim.cmd('wall')
  -- The server sees the edited buffers: still no findings (a half-done rename would leave some).
  request('workspace/symbol', { query = 'renamed' }, pkg)
  seen.after = { package = codes(pkg), bundles = codes(bundles) }
  seen.renamed = #request('workspace/symbol', { query = 'renamed' }, pkg)
  client.stop()
end

local ok, err = pcall(drive)
if not ok then
  table.insert(seen.errors, tostring(err))
end
local file = assert(io.open(out, 'w'))
file:write(vim.fn.json_encode(seen))
file:close()
vim.cmd('qa!')
