-- Chancery library: explained sums. A value built from named terms keeps every term, so
-- the rules can log the breakdown and a bot can put it in its reasons:
--   local modifiers = include("@lib/modifiers.lua")
--   local drm = modifiers.sum("battle DRM")
--   drm:add(5, "DAVOUT")
--   drm:add(-2, "against the Allies")
--   drm:add(1, "debate")
--   drm:total()    --> 4
--   drm:explain()  --> "5 DAVOUT − 2 against the Allies + 1 debate = 4"
--   drm:log(ctx)   -- writes "battle DRM: 5 DAVOUT − 2 against the Allies + 1 debate = 4"

local M = {}

local Sum = {}
Sum.__index = Sum

local MINUS = "−"

--- A new sum with no terms; `title` (optional) names it in the log ("battle DRM").
function M.sum(title)
  return setmetatable({ title = title, items = {}, floor = nil, ceiling = nil }, Sum)
end

--- Adds a term: a number and what it is ("DAVOUT", "supports"); returns the sum.
function Sum:add(value, label)
  if type(value) ~= "number" or value ~= value or value == math.huge or value == -math.huge then
    error(string.format("modifiers: the term '%s' must be a number, got %s", tostring(label), tostring(value)), 2)
  end
  self.items[#self.items + 1] = { value = value, label = label or "" }
  return self
end

--- Adds a term only when `condition` holds; returns the sum.
function Sum:add_if(condition, value, label)
  if condition then
    self:add(value, label)
  end
  return self
end

--- Adds `each(item)` for every item of `list` that gives a number, labelled `label(item)`
--- (or the item itself); returns the sum.
function Sum:add_each(list, each, label)
  for _, item in ipairs(list) do
    local value = each(item)
    if value ~= nil then
      self:add(value, label and label(item) or tostring(item))
    end
  end
  return self
end

--- Keeps the total at or above `low` and at or below `high` (either may be nil), as a
--- printed limit on a DRM does; the explanation says when it applies. Returns the sum.
function Sum:clamp(low, high)
  self.floor, self.ceiling = low, high
  return self
end

--- The terms, in the order they were added: a list of {value = n, label = text}.
function Sum:terms()
  local copy = {}
  for i, item in ipairs(self.items) do
    copy[i] = { value = item.value, label = item.label }
  end
  return copy
end

local function raw_total(self)
  local total = 0
  for _, item in ipairs(self.items) do
    total = total + item.value
  end
  return total
end

--- The value: the sum of the terms, within the limits set by `clamp`.
function Sum:total()
  local total = raw_total(self)
  if self.floor ~= nil and total < self.floor then
    total = self.floor
  end
  if self.ceiling ~= nil and total > self.ceiling then
    total = self.ceiling
  end
  return total
end

-- A number as a person writes it: 3, 2.5 (never 3.0).
local function number(n)
  if math.type(n) == "integer" then
    return tostring(n)
  elseif n == math.floor(n) and math.abs(n) < 2 ^ 53 then
    return string.format("%d", n)
  end
  return string.format("%g", n)
end

local function term_text(item)
  if item.label == "" then
    return number(math.abs(item.value))
  end
  return number(math.abs(item.value)) .. " " .. item.label
end

--- The breakdown in words: "5 DAVOUT − 2 against the Allies + 1 debate = 4" (a sum with
--- no terms reads "nothing = 0").
function Sum:explain()
  if #self.items == 0 then
    return "nothing = " .. number(self:total())
  end
  local parts = {}
  for i, item in ipairs(self.items) do
    if i == 1 then
      parts[1] = (item.value < 0 and MINUS or "") .. term_text(item)
    else
      parts[#parts + 1] = (item.value < 0 and MINUS or "+") .. " " .. term_text(item)
    end
  end
  local text = table.concat(parts, " ")
  local raw, total = raw_total(self), self:total()
  if raw ~= total then
    local bound = total == self.floor and "at least " or "at most "
    return string.format("%s = %s, %s%s", text, number(raw), bound, number(total))
  end
  return string.format("%s = %s", text, number(total))
end

--- Writes the breakdown to the game log (after the sum's title, if it has one); returns the total.
function Sum:log(ctx)
  local text = self:explain()
  if self.title then
    text = self.title .. ": " .. text
  end
  ctx:log(text)
  return self:total()
end

--- The breakdown after the sum's title, as a line for a bot's reasons.
function Sum:reason()
  if self.title then
    return self.title .. ": " .. self:explain()
  end
  return self:explain()
end

return M
