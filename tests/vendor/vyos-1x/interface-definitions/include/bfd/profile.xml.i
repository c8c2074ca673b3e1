<!-- include start from bfd/profile.xml.i -->
<leafNode name="profile">
  <properties>
    <help>Use settings from BFD profile</help>
    <completionHelp>
      <path>protocols bfd profile</path>
    </completionHelp>
    <valueHelp>
      <format>txt</format>
      <description>BFD profile name</description>
    </valueHelp>
  </properties>
</leafNode>
<!-- include end -->
