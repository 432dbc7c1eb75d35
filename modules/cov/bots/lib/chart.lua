-- Congress of Vienna bots' shared library: reading a bot's chart kept as data (data/
-- bot_charts.ron) and the small measures the charts' rows are written in. The rows of a
-- table in order; the first row whose word picks an action; the highest or lowest card
-- (equal ones at random); the action with the best score; a side's units on a front and
-- its advantage there; the armies of a power that fight this War Phase; and the Initial
-- Battle Differential as an explained sum. Both Playbook bots (20 and 21) read their
-- charts through it.

local flowchart = include("@lib/flowchart.lua")
local util = include("@lib/util.lua")
local deck = include("@lib/deck.lua")
local modifiers = include("@lib/modifiers.lua")
local cards = include("rules/cards.lua")
local forces = include("rules/forces.lua")
local rules_war = include("rules/war.lua")
local battle = include("rules/battle.lua")
local display = include("rules/display.lua")
local options = include("rules/options.lua")
local conditions = include("bots/lib/conditions.lua")

local chart = {}

-- A chart bot as the rules call it: `steps[state]` decides the state (ctx, seat, actions,
-- trace); a state the chart has no step for takes the first action by best judgment, the
-- reason beginning with `judgment` (the rule that allows it: "21 (best judgment, L1761)").
function chart.bot(steps, judgment)
  return function(ctx, seat, actions)
    local t = flowchart.trace()
    local state = ctx:state()
    local decide_state = steps[state]
    if type(decide_state) ~= "function" then
      return t:choose(1, "%s: no step of the chart for the state %s: %s.", judgment, tostring(state),
        actions[1].label)
    end
    return decide_state(ctx, seat, actions, t)
  end
end

-- What both chart bots read often: a card's data field, an issue's name, the war status,
-- the Diplomacy Round, the action that plays a card.
function chart.field(ctx, card, name)
  return ctx.data.cards[card].fields[name]
end

chart.issue_name = display.issue_name

function chart.war_status(ctx)
  return ctx.vars.war_status or "limited"
end

function chart.round_of(ctx)
  return (ctx.vars.diplomacy or {}).round or 1
end

function chart.play_index(actions, card)
  for i, a in ipairs(actions) do
    if a.name == "play" and a.card == card then
      return i
    end
  end
  return nil
end

-- Whether chart condition `id` holds for `power` (about `piece`, if given); one the module
-- cannot decide is read as the bot's option `option` says ("yes" or "no"), and the trace
-- says so.
function chart.holds(ctx, id, power, piece, t, option)
  local answer = conditions.holds(ctx, id, power, piece)
  if answer == nil then
    answer = options.get(ctx, option) == "yes"
    t:step("(\"%s\" is the players' to judge at the table; read as %s, as the game is set up: %s.)",
      conditions.words(id), answer and "yes" or "no", options.words(ctx, option))
  end
  return answer
end

-- Row `key` of chart table `id` as a player reads it: the chart's step with the row named
-- in words ("20.4, Austria's row 1"), or, for a table that is one step, the key in words
-- ("a priority issue, Round 4, Military pile active"). A reason begins with it.
function chart.row(ctx, id, key)
  local step, words = ctx:chart_row(id, key)
  return step or words
end

-- The rows of chart table `id` in order, each key and value, up to the first "none"; keys
-- `prefix`1, `prefix`2, … (prefix "" for plain numbers). A row not entered yet is asked for
-- at the table when the bot reads it (the chart is the owner's).
function chart.rows(ctx, id, prefix)
  local entries = ctx.data.tables[id]
  prefix = prefix or ""
  local k = 0
  return function()
    k = k + 1
    local key = prefix .. tostring(k)
    local value = entries[key]
    if value == nil or value == "none" then
      return nil
    end
    return key, value
  end
end

-- Every row of chart table `id` in the printed order ("1", "2a", "2b", …, "10"), each key
-- and value; a row entered as "none" (not on the printed chart) is left out. Then, the
-- table being open, the numbered rows after the last listed one, each read when the bot
-- gets to it (so asked at the table, once, when not entered), up to the first "none".
function chart.printed_rows(ctx, id)
  local listed = chart.ordered(ctx, id)
  local i, next_number = 0, 1
  for _, row in ipairs(listed) do
    local n = tonumber(row.key:match("^(%d+)"))
    if n and n >= next_number then
      next_number = n + 1
    end
  end
  local done = false
  return function()
    i = i + 1
    if listed[i] then
      return listed[i].key, listed[i].value
    end
    if done or not ctx.data.tables[id] then
      return nil
    end
    local key = tostring(next_number)
    local value = ctx.data.tables[id][key]
    if value == nil or value == "none" then
      done = true
      return nil
    end
    next_number = next_number + 1
    return key, value
  end
end

function chart.ordered(ctx, id)
  local entries = ctx.data.tables[id]
  local keys = {}
  for key in pairs(entries) do
    keys[#keys + 1] = key
  end
  local function split(key)
    local n, rest = key:match("^(%d+)(.*)$")
    return tonumber(n) or math.huge, rest or key
  end
  table.sort(keys, function(a, b)
    local na, ra = split(a)
    local nb, rb = split(b)
    if na ~= nb then
      return na < nb
    end
    return ra < rb
  end)
  local list = {}
  for _, key in ipairs(keys) do
    if entries[key] ~= "none" then
      list[#list + 1] = { key = key, value = entries[key] }
    end
  end
  return list
end

-- The first row of chart table `id` whose word (a key of `words`, each {words, pick}) picks
-- an action, `pick(ctx, ...)` giving its index: the index, the row and the word. The rows
-- passed by are traced ("21.9.3, Step 13, row 1: with the Grande Armée: none.").
function chart.first_row(ctx, t, id, words, step, ...)
  for key, word in chart.rows(ctx, id) do
    local i = words[word].pick(ctx, ...)
    if i then
      return i, key, word
    end
    t:step("%s, row %s: %s: none.", step, key, words[word].words)
  end
  return nil
end

-- `first_row`, with the row that picked traced as the step that chose ("21.9.3, Step 13,
-- row 1: with the Grande Armée: Place …"): the action's index, or nil when no row picks.
-- `actions` is handed to each word's pick after ctx, then the rest.
function chart.pick_row(ctx, t, id, words, step, actions, ...)
  local i, key, word = chart.first_row(ctx, t, id, words, step, actions, ...)
  if i then
    t:step("%s, row %s: %s: %s.", step, key, words[word].words, actions[i].label)
  end
  return i
end

-- The index of the first action named `name` (with the argument `arg`, if given), or nil.
chart.named = deck.find_action

--- The indices of the actions named `name` (of all the actions when `name` is nil), in order.
function chart.indices(actions, name)
  local list = {}
  for i, action in ipairs(actions) do
    if name == nil or action.name == name then
      list[#list + 1] = i
    end
  end
  return list
end

-- The items of a list that `keep` accepts, in order (a new list).
chart.filter = util.filter

function chart.value_of(ctx, card)
  return cards.printed(ctx, card) or 0
end

-- The card of `list` with the highest (sign 1) or lowest (sign -1) printed value; equal
-- ones at random, `why` naming the draw.
function chart.extreme(ctx, list, sign, why)
  local _, tied = util.highest(list, function(card)
    return chart.value_of(ctx, card) * sign
  end)
  if #tied <= 1 then
    return tied[1]
  end
  table.sort(tied)
  return tied[ctx:random(#tied, why)]
end

-- The action named `name` with the largest (sign 1) or smallest (sign -1) `score`, among
-- those `keep` allows (the first on ties), and its score.
function chart.best_action(actions, name, score, sign, keep)
  local best, best_score
  for i, action in ipairs(actions) do
    if action.name == name and (keep == nil or keep(action)) then
      local s = score(action)
      if s ~= nil and (best_score == nil or s * sign > best_score * sign) then
        best, best_score = i, s
      end
    end
  end
  return best, best_score
end

-- The units of `side` ("FR" or "allied") on `front` (the War of 1812 box counts on G).
function chart.front_units(ctx, front, side)
  local n = 0
  for _, block in ipairs(forces.armies(ctx)) do
    local owner = forces.owner(ctx, block)
    if forces.front_of(ctx, block) == front and forces.side(owner) == side then
      n = n + forces.units(ctx, forces.box(block), side)
    end
  end
  if front == "G" then
    n = n + forces.units(ctx, forces.W1812, side)
  end
  return n
end

-- `side`'s unit advantage on a front: its units there less the other side's.
function chart.advantage(ctx, front, side)
  local other = side == "FR" and "allied" or "FR"
  return chart.front_units(ctx, front, side) - chart.front_units(ctx, front, other)
end

-- The front a placement target is on (an army block, or the War of 1812 box: G).
function chart.target_front(ctx, target)
  if target == forces.W1812 then
    return "G"
  elseif type(target) == "string" and ctx.data.pieces[target] then
    return forces.front_of(ctx, target)
  end
  return nil
end

-- Whether a Military Operation stands with `target` this War Phase.
function chart.has_op(ctx, target)
  for _, op in ipairs(((ctx.vars.war or {}).ops) or {}) do
    if op.target == target then
      return true
    end
  end
  return false
end

-- The boxes of `power`'s armies that fight a battle this War Phase, each with its front.
function chart.battle_fronts(ctx, power)
  local fights = {}
  for _, block in ipairs(forces.armies_of(ctx, power)) do
    local front = forces.front_of(ctx, block)
    if front and rules_war.battle_on(ctx, front) then
      fights[forces.box(block)] = front
    end
  end
  return fights
end

-- The Initial Battle DRMs of both sides as one sum, seen from `side`: its terms added, the
-- other side's taken away ("units (Allies)", "Military Support (France)").
function chart.differential_sum(ctx, title, side)
  local sum = modifiers.sum(title)
  local other = side == "FR" and "allied" or "FR"
  local names = { FR = "France", allied = "Allies" }
  for _, term in ipairs(battle.initial_drm(ctx, side):terms()) do
    sum:add(term.value, string.format("%s (%s)", term.label, names[side]))
  end
  for _, term in ipairs(battle.initial_drm(ctx, other):terms()) do
    sum:add(-term.value, string.format("%s (%s)", term.label, names[other]))
  end
  return sum
end

-- Whether negotiation `a` goes before `b` (each {card, piece, gain, rank, value}): more
-- spaces gained, then the earlier row of the bot's priority table, then the higher card
-- (then by ids, so that the choice is the same each time).
function chart.before(a, b)
  if a.gain ~= b.gain then
    return a.gain > b.gain
  elseif a.rank ~= b.rank then
    return a.rank < b.rank
  elseif a.value ~= b.value then
    return a.value > b.value
  elseif a.card ~= b.card then
    return a.card < b.card
  end
  return a.piece < b.piece
end

-- M of the bots' debate tables (20.7's example, L1617; 21.6, L1844): 7 - the issue's space,
-- 0 on the Negotiation Table; and the space.
function chart.debate_m(ctx, piece)
  local kind, _, n = display.where(ctx, piece)
  local space = kind == "track" and n or 0
  return 7 - space, space
end

-- A Handicap card's choice (20.13, L1747; 21.12, L1956): the choice with the best rank by
-- `rank_of(arg)` (the bot's priority table, named `table_name`), else one at random. `step`
-- begins the reason.
function chart.handicap_choice(ctx, actions, t, rank_of, step, table_name)
  -- The issues of the best rank, the lowest (the highest negative); among several, one at
  -- random (L1557, L1816, L1949: "chooses randomly from one of the Minor Allies that
  -- provides a military unit").
  local choices = chart.indices(actions, "choose")
  local top, best = util.highest(choices, function(i)
    local r = rank_of(actions[i].arg)
    return r and -r
  end)
  if #best > 0 then
    local rank = -top
    local pick = #best == 1 and best[1]
      or best[ctx:random(#best, string.format("%d issues of the same rank, at random (%s)", #best, step))]
    local how = #best == 1 and "" or string.format(", one of %d of that rank at random", #best)
    return t:choose(pick, "%s: the Handicap card's issue by Table %s (rank %d%s): %s.", step, table_name, rank, how,
      actions[pick].label)
  end
  local pick = choices[ctx:random(#choices, string.format("no criterion, at random (%s)", step))]
  return t:choose(pick, "%s: no criterion of this chapter fits; at random: %s.", step, actions[pick].label)
end

return chart
