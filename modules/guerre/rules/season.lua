-- La Guerre de l'Empereur: the calendar (1.2, 3.6) and the Combat Seasons' chit cup (4.5,
-- 4.6). Each Combat Season puts in the cup a turn chit for every Player Country and every
-- Controlled NPC; France may go first; each player whose turn ends draws the next chit;
-- the Mutual Build Phase closes the Season. After Fall comes the next year's Winterphase;
-- the game ends at the end of Fall 1815, or when a power reaches its Victory Point
-- objective (7.0, 7.1). The Season is one procedure in the rulebook's order
-- (@lib/steps.lua); each decision is a state that hands its answer back to it. A country's
-- turn is rules/prepare.lua's.

local cancel = include("rules/cancel.lua")
local form = include("@lib/form.lua")
local mat = include("rules/mat.lua")
local powers = include("rules/powers.lua")
local steps = include("@lib/steps.lua")
local util = include("@lib/util.lua")
local ask = include("rules/ask.lua")

local season = {}

season.NEXT = { Spring = "Summer", Summer = "Fall" }

local name = powers.name

--- The Season on the calendar in words ("Spring 1806").
function season.date(ctx)
  return string.format("%s %d", ctx.vars.season, ctx.vars.year)
end

local date = season.date

--- The powers whose chits go in the cup (4.6): the Player Countries and the Controlled
--- NPCs (an inactive NPC's or an Allied NPC's does not).
function season.in_cup(ctx)
  return util.filter(ctx.vars.powers, function(power)
    local npc = ctx.vars.npc[power]
    return npc == nil or npc == "controlled"
  end)
end

--- The first power to reach its Victory Point objective (7.0), if any.
function season.victor(ctx)
  for _, power in ipairs(ctx.vars.pcs) do
    if ctx:counter("vp." .. power) >= ctx.data.tables.victory_objective[power] then
      return power
    end
  end
  return nil
end

--- The ranking at the end (7.0): each Player Country by the share of its objective it has.
function season.finish(ctx, why)
  local scores = {}
  for _, power in ipairs(ctx.vars.pcs) do
    scores[power] = ctx:counter("vp." .. power)
  end
  local _, winners = util.highest(ctx.vars.pcs, function(power)
    return scores[power] / ctx.data.tables.victory_objective[power]
  end)
  ctx:game_over({ winners = winners, scores = scores, text = why })
end

season.states = {}

--- The alliances of two or more Player Countries, each as its members in the powers' order.
function season.coalitions(ctx)
  local by, list = {}, {}
  for _, power in ipairs(ctx.vars.pcs) do
    local id = ctx.vars.league[power]
    if id then
      if not by[id] then
        by[id] = {}
        list[#list + 1] = by[id]
      end
      table.insert(by[id], power)
    end
  end
  return list
end

--- The members of `power`'s coalition who take their turns after it (4.61).
function season.partners(ctx, power)
  return util.filter(ctx.vars.coalition[power] or {}, function(m)
    return m ~= power
  end)
end

-- 4.6: the Turn Start Phase opens: no coalition yet; a Peace Party's nation at peace now may
-- stay so the whole Season (4.741); a chit in the cup for each country that moves.
local function chits_in_cup(ctx)
  ctx:set_phase(date(ctx) .. ": Turn Start Phase")
  ctx.vars.coalition = {}
  for power, party in pairs(ctx.vars.peace_party) do
    party.quiet = not powers.in_war(ctx, power)
    ctx.vars.peace_party[power] = party
  end
  for _, power in ipairs(season.in_cup(ctx)) do
    ctx:move_card("chit." .. power, "cup")
  end
  ctx:shuffle("cup")
end

-- 4.61: the alliance `members` moves this Season on `head`'s chit: the others' chits leave
-- the cup.
local function cooperate(ctx, members, head)
  ctx.vars.coalition[head] = members
  for _, m in ipairs(members) do
    if m ~= head then
      ctx:move_card("chit." .. m, "chits", "bottom")
    end
  end
  ctx:log(string.format("%s: %s move together this Season, on %s's chit (4.61).", date(ctx), powers.names(ctx, members), name(ctx, head)))
end

-- The Player Turns on the chit of `power`: its own, then its coalition's others' (4.61).
local function turns_on(ctx, power)
  local list = season.partners(ctx, power)
  table.insert(list, 1, power)
  return steps.call("chit", { powers = list })
end

-- 4.6: France takes the first Player Turn: its chit is drawn without the cup.
local function france_first(ctx)
  ctx:move_card("chit.FR", "drawn", "bottom")
  ctx:flip("chit.FR", true)
  ctx:log(string.format("%s: France takes the first Player Turn.", date(ctx)))
  return turns_on(ctx, "FR")
end

-- 4.6, 5.7: the next chit drawn from the cup, and its Player Turns; nothing once the cup is
-- empty (every country has had its turn).
local function draw(ctx)
  if ctx:count("cup") == 0 then
    return nil
  end
  local chit = ctx:zone("cup")[1]
  ctx:move_card(chit, "drawn", "bottom")
  ctx:flip(chit, true)
  local power = chit:match("^chit%.(.+)$")
  local members = ctx.vars.coalition[power]
  if members then
    ctx:log(string.format("%s: %s's chit is drawn: %s take their Player Turns together.", date(ctx), name(ctx, power), powers.names(ctx, members)))
  else
    ctx:log(string.format("%s: %s's chit is drawn.", date(ctx), name(ctx, power)))
  end
  return turns_on(ctx, power)
end

-- A Combat Season (4.5, 3.7 B): the Turn Start Phase, the Player Turns in the order of the
-- chits, the Mutual Build Phase, and the End of Turn, which moves the Season marker on.
season.states.season = steps.procedure("4.5 Combat Season", {
  { name = "4.6 Turn Start Phase: the chits in the cup", run = chits_in_cup },
  {
    name = "4.61 Military Cooperation, alliance by alliance",
    each = season.coalitions,
    label = function(ctx, members)
      return powers.names(ctx, members)
    end,
    calls = { "turn_start", "cancel_window" },
    run = function(ctx, members)
      return steps.call("turn_start", { members = members })
    end,
    -- The alliance names the chit it moves on, subject to the cancel window (4.62).
    resume = function(ctx, answer, members)
      if answer.head then
        ctx.locals.head = answer.head
        local window = cancel.window(ctx, string.format("%s declare Military Cooperation", powers.names(ctx, members)), members)
        if window then
          return window
        end
        cooperate(ctx, members, answer.head)
      elseif answer.cancelled == false then
        cooperate(ctx, members, ctx.locals.head)
      end
    end,
  },
  {
    name = "4.6 France may take the first Player Turn",
    calls = "turn_start",
    run = function(ctx)
      return steps.call("turn_start", { power = "FR" })
    end,
    resume = function(ctx, answer)
      ctx.locals.france_first = answer.first
    end,
  },
  {
    name = "4.6, 5.7 The Player Turns, each player drawing the next chit",
    calls = "chit",
    run = function(ctx)
      if ctx.locals.france_first then
        return france_first(ctx)
      end
      return draw(ctx)
    end,
    resume = draw,
  },
  ask.calling {
    name = "6.0 Mutual Build Phase",
    each = ask.players,
    label = name,
    calls = "build",
  },
  {
    name = "6.2 End of Turn",
    run = function(ctx)
      return season.end_season(ctx)
    end,
  },
})

-- The Player Turns taken on one chit (4.61): its country's, then each of its coalition's
-- others', before the next chit is drawn.
season.states.chit = steps.procedure("4.61 The Player Turns on one chit", {
  ask.calling {
    name = "4.61 Each country of the chit in turn",
    each = steps.listed("powers"),
    label = name,
    calls = "turn",
  },
})

-- The Turn Start Phase's questions (4.6, 4.61): called with an alliance's `members`, whether
-- it declares Military Cooperation and on whose chit; called with `power` (France), its
-- option to go first. It hands back `{head = the chit's country}` or `{}`, or `{first =
-- true|false}`.
local turn_start = {}
season.states.turn_start = turn_start

function turn_start.prompt(ctx)
  local members = ctx.locals.members
  if members then
    local actions = {}
    for _, m in ipairs(members) do
      actions[#actions + 1] = { name = "cooperate", arg = m, label = string.format("Declare Military Cooperation, on %s's chit", name(ctx, m)) }
    end
    actions[#actions + 1] = { name = "no_cooperation", label = "No Military Cooperation" }
    return {
      seat = members[1],
      text = string.format("%s: 4.61 %s may declare Military Cooperation (one Player Turn together, on one chit)", date(ctx), powers.names(ctx, members)),
      actions = actions,
    }
  end
  -- France is a Player Country in every game (3.0); it may not go first while it
  -- cooperates with a Player Country ally (4.6).
  local power = ctx.locals.power
  local actions = { { name = "draw", label = "Draw the first chit" } }
  if not (ctx.vars.coalition[power] or ctx:card_zone("chit." .. power) ~= "cup") then
    table.insert(actions, 1, { name = "first", label = name(ctx, power) .. " goes first" })
  end
  return {
    seat = power,
    text = string.format("%s: 4.6 %s may take the first Player Turn, or put its chit in the cup and draw", date(ctx), name(ctx, power)),
    actions = actions,
  }
end

function turn_start.cooperate(ctx, head)
  ctx:pop({ head = head })
end

turn_start.no_cooperation = ask.result({})
turn_start.first = ask.result({ first = true })
turn_start.draw = ask.result({ first = false })

-- The Mutual "Build" Phase (1.212, 6.0): a player buys his new units, every purchase at
-- its list cost (the Player Mat's) raised 5% a province of its Line of Communications
-- (6.12), paid in gold; he says when he is done.
local build = {}
season.states.build = build

--- The adjusted cost of units of `list` cost built `loc` provinces from home (6.12): 5%
--- more a province, rounded to the nearest gold, a half up (RULES-GAPS.md).
function season.build_cost(list, loc)
  return (list * (100 + 5 * loc) + 50) // 100
end

function build.on_enter(ctx)
  ctx:set_phase(date(ctx) .. ": Mutual Build Phase")
end

function build.prompt(ctx)
  local power = ctx.locals.power
  local actions = {
    { name = "built", label = "My builds are done" },
    { name = "mat", label = "Put the new divisions on my Player Mat (hidden from the other players, 2.5)" },
  }
  -- No other expenditure while a deficit lasts (4.221).
  if ctx:counter("gold." .. power) > 0 then
    table.insert(actions, 1, { name = "build", label = "Buy units (their list cost and Line of Communications)" })
  end
  return {
    seat = power,
    text = string.format("%s: 6.0 Mutual Build Phase: %s buys new units (%d gold)", date(ctx), name(ctx, power), ctx:counter("gold." .. power)),
    actions = actions,
  }
end

function build.mat(ctx)
  mat.edit(ctx, ctx.locals.power)
end

function build.build(ctx)
  form.open(ctx, "purchase", { seat = ctx.locals.power, cancel = "Buy nothing" })
end

function build.on_resume(ctx, result)
  local power = ctx.locals.power
  if mat.store(ctx, power, result) or result.cancelled then
    return
  end
  result = result.values
  local cost = season.build_cost(result.list, result.loc)
  if cost > ctx:counter("gold." .. power) then
    ctx:log(string.format("%s cannot pay %d gold for units of %d at a Line of Communications of %d.", name(ctx, power), cost, result.list, result.loc))
    return
  end
  local now = ctx:add_counter("gold." .. power, -cost)
  ctx:log(string.format("%s buys units of list cost %d at a Line of Communications of %d for %d gold: %d gold left.",
    name(ctx, power), result.list, result.loc, cost, now))
end

build.built = ask.done

-- A purchase's figures: the list cost of the units, then the length of their Line of
-- Communications (0 at home; provinces of Spain, Portugal, Russia, the Ottoman Empire and
-- Africa counted twice, 6.12).
form.define("purchase", "6.12 A purchase", function()
  return {
    { key = "list", text = "the list cost of the units (from the Player Mat)", min = 1, max = 500 },
    { key = "loc", text = "the Line of Communications in provinces (0 at home; Spain, Portugal, Russia, the Ottoman Empire and Africa count twice)", min = 0, max = 50 },
  }
end)

--- The Season's end (6.2): the chits come out of the play, and the Season marker moves on:
--- after Fall to the next year's Winterphase (or the game ends, after Fall 1815); else to
--- the next Season.
function season.end_season(ctx)
  -- A cancellation holds for its Season only (4.623); an Enforced Peace or Free Passage
  -- that has run out is no longer kept.
  ctx.vars.cancelled = {}
  for _, key in ipairs({ "peace", "passage" }) do
    local kept = {}
    for pair, last in pairs(ctx.vars[key]) do
      if last > powers.season_index(ctx) then
        kept[pair] = last
      end
    end
    ctx.vars[key] = kept
  end
  -- A Peace Party whose nation was at peace the whole Season is resolved (4.741).
  for _, power in ipairs(ctx.vars.pcs) do
    local party = ctx.vars.peace_party[power]
    if party and party.quiet then
      ctx.vars.peace_party[power] = nil
      ctx:log(string.format("%s has been at peace the whole Season: its Peace Party is over (4.741).", name(ctx, power)))
    end
  end
  for _, chit in ipairs(ctx:zone("drawn")) do
    ctx:move_card(chit, "chits", "bottom")
  end
  if ctx.vars.season == "Fall" then
    if ctx.vars.year >= 1815 then
      season.finish(ctx, "The game ends after the Fall 1815 Season (1.2): the players ranked by the share of their objectives (7.0)")
      return steps.stop()
    end
    ctx.vars.year = ctx.vars.year + 1
    ctx.vars.season = "Winterphase"
    ctx:set_turn(ctx:turn() + 1)
    ctx:set_phase(date(ctx))
    return
  end
  ctx.vars.season = season.NEXT[ctx.vars.season]
  ctx:set_turn(ctx:turn() + 1)
end

--- The procedure of the Season the calendar stands at (1.2): a Winterphase or a Combat
--- Season, as a step returns it.
function season.current(ctx)
  return steps.call(ctx.vars.season == "Winterphase" and "winterphase" or "season")
end

return season
