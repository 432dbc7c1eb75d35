-- Chancery library: small table helpers for plain data.
--   local util = include("@lib/util.lua")

local M = {}

--- Whether `list` contains `value`.
function M.contains(list, value)
  for _, v in ipairs(list) do
    if v == value then
      return true
    end
  end
  return false
end

--- The keys of `map`, sorted (so that loops over them are deterministic).
function M.sorted_keys(map)
  local keys = {}
  for k in pairs(map) do
    keys[#keys + 1] = k
  end
  table.sort(keys, function(a, b)
    return tostring(a) < tostring(b)
  end)
  return keys
end

local pieces_by_kind = {}

--- The ids of the pieces of kind `kind` ("block", "issue"…), in the data's order. The data
--- never changes while a VM lives, so each kind's list is made once and every caller gets
--- the same list: read it, never change it.
function M.pieces_of_kind(ctx, kind)
  local list = pieces_by_kind[kind]
  if list == nil then
    list = {}
    for _, id in ipairs(ctx.data.piece_ids) do
      if ctx.data.pieces[id].kind == kind then
        list[#list + 1] = id
      end
    end
    pieces_by_kind[kind] = list
  end
  return list
end

--- A deep copy of `value` as plain tables (module data is read-only; copy it to change it).
function M.copy(value)
  if type(value) ~= "table" then
    return value
  end
  local out = {}
  for k, v in pairs(value) do
    out[k] = M.copy(v)
  end
  return out
end

--- The named readings a game is set up with: for each option of `spec` (`ctx.data.options`:
--- key to {default, values}, `values` the allowed strings' words by value), the value `given`
--- (the set-up's options) names, else its default. A value that is not one of the option's
--- is an error that names both (the engine refuses it first, for declared options).
function M.readings(spec, given)
  local chosen = {}
  for name, option in pairs(spec) do
    local value = given[name] or option.default
    if not option.values[value] then
      error(string.format("option %s: '%s' is not one of its readings", name, tostring(value)))
    end
    chosen[name] = value
  end
  return chosen
end

--- How many items of `list` satisfy `wanted`.
function M.count(list, wanted)
  local n = 0
  for _, v in ipairs(list) do
    if wanted(v) then
      n = n + 1
    end
  end
  return n
end

--- The sum of `f(item)` over `list` (of the items themselves without `f`).
function M.sum(list, f)
  local total = 0
  for _, v in ipairs(list) do
    total = total + (f and f(v) or v)
  end
  return total
end

--- `words` joined as a sentence lists them ("France, Prussia and Russia"); `none` (or "")
--- for an empty list.
function M.joined(words, none)
  if #words <= 1 then
    return words[1] or none or ""
  end
  return table.concat(words, ", ", 1, #words - 1) .. " and " .. words[#words]
end

--- The items of `list` for which `keep(item)` is true, in order (a new list).
function M.filter(list, keep)
  local out = {}
  for _, v in ipairs(list) do
    if keep(v) then
      out[#out + 1] = v
    end
  end
  return out
end

--- The highest `score(item)` over `list`, and the items that reach it, in order (nil and
--- an empty list for an empty list; an item whose score is nil takes no part).
function M.highest(list, score)
  local best, leaders = nil, {}
  for _, v in ipairs(list) do
    local s = score(v)
    if s ~= nil and (best == nil or s > best) then
      best, leaders = s, { v }
    elseif s ~= nil and s == best then
      leaders[#leaders + 1] = v
    end
  end
  return best, leaders
end

--- A new list of `f(item)` for the items of `list`, in order.
function M.map(list, f)
  local out = {}
  for i, v in ipairs(list) do
    out[i] = f(v)
  end
  return out
end

return M
