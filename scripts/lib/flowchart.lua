-- Chancery library: flowchart traces for bots.
-- A bot answers with a choice and the steps it took, so a player at a physical table can
-- follow the decision box by box. Usage:
--   local flowchart = include("@lib/flowchart.lua")
--   local t = flowchart.trace()
--   if t:ask("1. Is a card worth 4 or more in hand?", best ~= nil) then
--     return t:choose(best_index, "Play %s", best.label)
--   end

local M = {}

local Trace = {}
Trace.__index = Trace

--- A new, empty trace.
function M.trace()
  return setmetatable({ steps = {} }, Trace)
end

--- Records one step (a `string.format` pattern and its values); returns the trace.
function Trace:step(text, ...)
  self.steps[#self.steps + 1] = string.format(text, ...)
  return self
end

--- Records a yes/no question and its answer; returns the answer, so it fits in an `if`.
function Trace:ask(question, answer)
  self.steps[#self.steps + 1] = question .. " " .. (answer and "Yes." or "No.")
  return answer and true or false
end

--- Records an explained sum (from `@lib/modifiers.lua`) as a step, after `text` (a
--- `string.format` pattern and its values) if given; returns the sum's total.
function Trace:sum(sum, text, ...)
  local line = sum:reason()
  if text then
    line = string.format(text, ...) .. " " .. line
  end
  self.steps[#self.steps + 1] = line
  return sum:total()
end

--- Records the final step and returns what a bot hook returns: the choice and the steps.
function Trace:choose(choice, text, ...)
  if text then
    self:step(text, ...)
  end
  return choice, self.steps
end

--- The index of the first action for which `wanted(action)` is true, or nil.
function M.first(actions, wanted)
  for i, action in ipairs(actions) do
    if wanted(action) then
      return i
    end
  end
  return nil
end

--- The `key` field (e.g. "card", "piece") of every action named `name`, in order.
function M.collect(actions, name, key)
  local list = {}
  for _, action in ipairs(actions) do
    if action.name == name then
      list[#list + 1] = action[key]
    end
  end
  return list
end

--- The index of the action with the highest `score(action)` (first one on ties), or nil.
function M.best(actions, score)
  local best, best_score = nil, nil
  for i, action in ipairs(actions) do
    local s = score(action)
    if s ~= nil and (best_score == nil or s > best_score) then
      best, best_score = i, s
    end
  end
  return best, best_score
end

--- A bot's answer by the state the game is in: `plans[state](ctx, seat, actions, t)`, the
--- trace `t` given (a new one if nil). A state with no plan gets `fallback`: a function
--- called the same way, or a `string.format` pattern given the state's name, with which
--- the bot takes the first action.
function M.by_state(plans, ctx, seat, actions, fallback, t)
  t = t or M.trace()
  local decide = plans[ctx:state()]
  if decide ~= nil then
    return decide(ctx, seat, actions, t)
  elseif type(fallback) == "function" then
    return fallback(ctx, seat, actions, t)
  end
  return t:choose(1, fallback, tostring(ctx:state()))
end

return M
