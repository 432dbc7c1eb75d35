-- War and Peace, the Grand Campaign (seed 002): the hook table, the set-up (D, J.1.d, L)
-- and the month's procedure (E). See README.md for what the module runs and what stays
-- at the table.

local form = include("@lib/form.lua")
local util = include("@lib/util.lua")
local steps = include("@lib/steps.lua")
local states = include("rules/states.lua")
local calendar = include("rules/calendar.lua")
local alliance = include("rules/alliance.lua")
local production = include("rules/production.lua")
local naval = include("rules/naval.lua")
local january = include("rules/january.lua")

--- Adds `units` (strength points by unit kind) to box `box`.
local function add_all(ctx, box, units)
  for kind, n in pairs(units or {}) do
    ctx:add_units(box, kind, n)
  end
end

-- The optional rules of K the players agree to use (K: "by mutual agreement"), off unless
-- named: the pro-French expeditionary forces (K.4), naval prizes (K.6), battle damage (K.7);
-- declared in data/options.ron.
local function setup(ctx, _, options)
  ctx.vars.options = util.readings(ctx.data.options, options)
  ctx.vars.status, ctx.vars.lent, ctx.vars.conquered = {}, {}, {}
  -- Naval prizes by captor (K.6), the prize each captor repairs, squadrons damaged (K.7).
  ctx.vars.prizes, ctx.vars.prize_repair, ctx.vars.damaged, ctx.vars.damage_repair = {}, {}, {}, {}
  -- The naval units on the Production Track, the foreign wars, the year each state's Force
  -- Pool last had its January additions.
  ctx.vars.installments, ctx.vars.wars, ctx.vars.added = {}, {}, {}
  -- The initial political status (D.1, D.2) and the 1805 Force Pools (J.1.d), from the
  -- Alliance Display and the Force Pool Display: owner data.
  for _, state in ipairs(states.all()) do
    ctx.vars.status[state] = ctx.data.tables.initial_status[state]
    add_all(ctx, states.box(state, "pool"), ctx.data.tables.initial_pool[state])
  end
  ctx:place("turn.marker", "turn", "1")
  ctx:set_phase(calendar.words(1))
  ctx:log(string.format("September 1805: %s play; the armies and fleets are set up on the mapboards (L).", states.names(ctx, ctx.vars.players)))
  ctx:call("month")
end

-- The month's steps: the January chores first, then each segment's phases.
local function extra_naval(ctx, faction)
  return naval.phase_actions(ctx, faction)
end

local function extra_land(ctx, faction)
  local actions = {
    { name = "minor_status", label = "A minor state changes side, or is created (G.1.f, H.1)" },
    { name = "conquest", label = "A minor state is conquered: the conquering player's die (I.3.b)" },
    { name = "major_conquest", label = "A major state is conquered (I.2)" },
    { name = "french_victory", label = "The French player wins an automatic victory (C.1)", confirm = "The game ends: France wins." },
  }
  if ctx.vars.agreed_end == nil then
    actions[#actions + 1] = { name = "agreed_end", label = "All the players agree to end the game at the end of this turn (C.3.b)" }
  end
  -- Napoleon's death ends the game a year later, whatever follows (C.3.c); only an exile
  -- may be undone by his return (C.3.d), and an agreed end never is.
  local gone = ctx.vars.napoleon_gone
  if gone == nil then
    actions[#actions + 1] = { name = "napoleon_killed", label = "Napoleon is killed: the game ends a year later (C.3.c)" }
    actions[#actions + 1] = { name = "napoleon_exiled", label = "Napoleon goes into exile: the game ends a year later unless he returns (C.3.d)" }
  elseif gone.exiled then
    actions[#actions + 1] = { name = "napoleon_back", label = "Napoleon is back from exile and on the map (C.3.d): his exile no longer ends the game" }
  end
  return actions
end

-- The handlers of the phases' actions (calendar.lua's `phase` state).
local phase = calendar.states.phase
naval.handlers(phase)

function phase.minor_status(ctx)
  form.open(ctx, "minor_status", { seat = ctx.locals.seat, cancel = "No change" })
end

function phase.major_conquest(ctx)
  form.open(ctx, "major_conquest", { seat = ctx.locals.seat, cancel = "No conquest" })
end

function phase.conquest(ctx)
  form.open(ctx, "conquest", { seat = ctx.locals.seat, cancel = "No conquest" })
end

function phase.french_victory(ctx)
  ctx:game_over({ winners = { "FR" }, text = "The French player's automatic victory (C.1)" })
end

-- The phase's actions once the end of the game has changed (they were listed as it began).
local function relist(ctx)
  ctx.locals.extra = extra_land(ctx, ctx.locals.faction)
end

function phase.agreed_end(ctx)
  ctx.vars.agreed_end = ctx:turn()
  ctx:log("All the players agree: the game ends at the end of this turn (C.3.b).")
  relist(ctx)
end

function phase.napoleon_killed(ctx)
  ctx.vars.napoleon_gone = { ends = ctx:turn() + 12, exiled = false }
  ctx:log(string.format("Napoleon is killed: the game ends after %s (C.3.c).", calendar.words(ctx:turn() + 12)))
  relist(ctx)
end

function phase.napoleon_exiled(ctx)
  ctx.vars.napoleon_gone = { ends = ctx:turn() + 12, exiled = true }
  ctx:log(string.format("Napoleon goes into exile: the game ends after %s unless he returns and is on the map (C.3.d).",
    calendar.words(ctx:turn() + 12)))
  relist(ctx)
end

function phase.napoleon_back(ctx)
  ctx.vars.napoleon_gone = nil
  ctx:log("Napoleon is back from exile and on the map: his exile no longer ends the game (C.3.d).")
  relist(ctx)
end

function phase.on_resume(ctx, result)
  if not january.resume(ctx, result) then
    naval.resume(ctx, result)
  end
end

local hooks = {
  january = function(ctx)
    if calendar.january(ctx) then
      return steps.call("prisoners")
    end
  end,
  naval = calendar.at_table("Naval Phase", "naval movement, transport and blockades at the table; combat, interception and blockade runs with the calculators", extra_naval),
  attrition = {
    name = "Attrition Phase",
    run = function(ctx)
      -- The French player rolls for the pro-French, the English for the anti-French (E.2.b, E.3).
      local seat = ctx.locals.faction == "pro" and "FR" or "EN"
      local die = ctx:roll(6, states.name(ctx, seat) .. "'s attrition die")
      ctx:log(string.format("Attrition Phase: %s rolls %d; attrition in each hex its faction's units occupy is applied at the table.", states.name(ctx, seat), die))
    end,
  },
  alliance = {
    name = "Alliance Phase",
    calls = "alliance_phase",
    run = function(ctx)
      local faction = ctx.locals.faction
      if faction == "pro" and calendar.january(ctx) then
        alliance.foreign_wars(ctx)
      end
      january.release(ctx)
      if alliance.asks(ctx, faction) then
        return steps.call("alliance_phase", { faction = faction })
      end
    end,
  },
  neutral_additions = {
    name = "Reinforcement Phase: the neutral minor states' January additions (J.1.f)",
    run = function(ctx)
      production.neutral_additions(ctx)
    end,
  },
  reinforcement = {
    name = "Reinforcement Phase",
    calls = "reinforcement",
    each = function(ctx)
      return production.producers(ctx, ctx.locals.faction)
    end,
    label = function(ctx, state)
      return states.name(ctx, state)
    end,
    run = function(ctx, state)
      return steps.call("reinforcement", { state = state, faction = ctx.locals.faction })
    end,
  },
  movement = calendar.at_table("Movement Phase", "the armies move at the table", extra_land),
  combat = calendar.at_table("Combat Phase", "the battles are fought at the table", extra_land),
  advance = function(ctx)
    return january.end_of_month(ctx)
  end,
}

local states_table = calendar.procedures(hooks)
states_table.form = form.state
for _, part in ipairs({ calendar, alliance, production, naval, january }) do
  for name, state in pairs(part.states) do
    states_table[name] = state
  end
end

-- Every seat reads the political status, the City Points, the installments, the wars.
local function view(ctx)
  local v = { Date = calendar.words(ctx:turn()) }
  -- Before the set-up has its values (the game's first decision asks them), there is no
  -- political status to show yet.
  if not ctx.vars.status or not ctx.vars.installments then
    return v
  end
  local status = {}
  for _, major in ipairs(states.MAJORS) do
    status[major] = states.STATUS_WORDS[ctx.vars.status[major]]
  end
  v["Major states"] = status
  local groups = {}
  for _, group in ipairs(states.GROUPS) do
    local words = {}
    for _, minor in ipairs(group.states) do
      words[#words + 1] = string.format("%s %s", states.name(ctx, minor), states.STATUS_WORDS[ctx.vars.status[minor]])
    end
    groups[group.name] = string.format("%s: %s", states.STATUS_WORDS[states.group_status(ctx, group)], table.concat(words, ", "))
  end
  v["Minor state groups"] = groups
  if #ctx.vars.installments > 0 then
    local list = {}
    for _, item in ipairs(ctx.vars.installments) do
      list[#list + 1] = string.format("%s's %s in box %d", states.name(ctx, item.state), item.kind == "squadrons" and "squadron" or "transport", item.box)
    end
    v["Production Track"] = table.concat(list, "; ")
  end
  return v
end

-- Invariants: every state has a status; no Force Pool holds a negative count.
local function check(ctx)
  for _, state in ipairs(states.all()) do
    if not states.STATUS_WORDS[ctx.vars.status[state] or ""] then
      return false, state .. " has no political status"
    end
  end
  return true
end

return {
  setup = setup,
  states = states_table,
  view = view,
  check = check,
}
