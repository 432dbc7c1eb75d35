-- Congress of Vienna: the named options of the bots, each a reading of a rule the Playbook
-- leaves ambiguous, with its default reading first (RULES-GAPS.md lists each with its
-- Playbook line). A game takes them as setup options, e.g.
--   chancery sim modules/cov --scenario lutzen-bautzen --option lutzen_france.debate_table=as-printed

local options = {}

options.OPTIONS = {
  ["lutzen_france.trade_answer"] = {
    doc = "18.4.5.4 (L1275): the card France gives when it accepts Russia's offer",
    values = {
      ["green-letter"] = "any card whose Russian (green) letter is C or D, the lowest of them",
      ["russian-card"] = "only a Russian card whose Russian letter is C or D",
    },
    default = "green-letter",
  },
  ["lutzen_france.trade_round2"] = {
    doc = "18.4.5.4 (L1279-L1281): France cannot see whether Russia or Britain holds a French card",
    values = {
      ["assume-none"] = "France assumes they hold none and offers in Round 2",
      never = "France makes no Round 2 offer",
    },
    default = "assume-none",
  },
  ["lutzen_france.pass"] = {
    doc = "18.4.5.5 (L1285): whether the passing table lets France pass without a Debate marker",
    values = {
      ["after-debate"] = "France passes only when the rules let any power pass: after it debated (L388)",
      ["by-table"] = "France may pass whenever the table says so",
    },
    default = "after-debate",
  },
  ["lutzen_france.debate_table"] = {
    doc = "18.4.5.8 (L1316-L1324): the debate table's \"<=\"",
    values = {
      ["at-least"] = "France debates when it holds at least the number of non-military cards shown",
      ["as-printed"] = "France debates when it holds at most that number, as printed",
    },
    default = "at-least",
  },
  ["lutzen_france.support_limit"] = {
    doc = "18.4.6.1 (L1334): which Military Operations count for the Military Support limit",
    values = {
      ["with-napoleon"] = "France's funded operations, plus two for Napoleon's free one (the Grande Armee takes two markers, 18.4.7.4)",
      ["own-only"] = "France's funded operations only",
    },
    default = "with-napoleon",
  },
  ["lutzen_france.synergy"] = {
    doc = "18.4.7.7 (L1390): \"consider synergy\" when military cards are assigned to fronts",
    values = {
      ["napoleon-berthier"] = "NAPOLEON goes to the Grande Armee's battle and BERTHIER with him (their best-of-two dice)",
      none = "no card is tied to another",
    },
    default = "napoleon-berthier",
  },
}

-- Checks the options a game was set up with: an unknown value of a bot option is an error
-- that names the values.
function options.check(given)
  for key, value in pairs(given or {}) do
    local option = options.OPTIONS[key]
    if option and option.values[value] == nil then
      local names = {}
      for name in pairs(option.values) do
        names[#names + 1] = name
      end
      table.sort(names)
      error(string.format("option %s=%s: the values are %s (%s)", key, tostring(value), table.concat(names, ", "),
        option.doc), 0)
    end
  end
end

-- The value of a bot option in this game.
function options.get(ctx, key)
  local given = (ctx.vars.bot_options or {})[key]
  return given or options.OPTIONS[key].default
end

return options
